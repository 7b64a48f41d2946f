"""The index dialect's folders against upstream's: every binary op, cast and
comparison on values either side of the 32-bit boundary, canonicalized by both,
must leave the same results folded to the same constants, and leave the same
ones unfolded (where the 32- and 64-bit answers differ, or a division is by
zero or a shift too wide)."""

from __future__ import annotations

import itertools

from xdsl.ir import Operation

from upstream_oracle import mlkit_print, upstream_print

BINARY = ["add", "sub", "mul", "divs", "divu", "ceildivs", "ceildivu", "floordivs", "rems",
          "remu", "maxs", "maxu", "mins", "minu", "shl", "shrs", "shru", "and", "or", "xor"]
PREDICATES = ["eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"]
VALUES = [0, 1, -1, 2, -2, 33, 64, 2**31 - 1, -(2**31), 2**32, 2**32 + 2,
          0x200000000, -(2**63), 2**63 - 1]


def _results(text: str) -> list[str]:
    """What each function returns: a constant's value, or the op left in place."""
    from mlkit.context import make_context
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    module = parse_module(make_context(default_registry()), text, "<out>")
    found: list[str] = []
    for func in module.body.block.ops:
        ret = func.regions[0].block.last_op
        for value in ret.operands:
            owner = value.owner
            if not isinstance(owner, Operation):
                found.append(f"{func.sym_name.data}:argument")
            elif owner.name in ("index.constant", "index.bool.constant"):
                found.append(f"{func.sym_name.data}={owner.properties['value']}")
            else:
                found.append(f"{func.sym_name.data}:{owner.name}")
    return found


def _program(bodies: list[tuple[str, str, str]]) -> str:
    funcs = []
    for name, body, result in bodies:
        funcs.append(f"func.func @{name}(%x: index) -> {result} {{\n{body}\n  return %r : {result}\n}}")
    return "\n".join(funcs)


def _compare(bodies: list[tuple[str, str, str]]) -> None:
    program = _program(bodies)
    pipeline = "builtin.module(canonicalize)"
    ours = _results(mlkit_print(program, pipeline=pipeline))
    theirs = _results(upstream_print(program, generic=False, pipeline=pipeline))
    assert ours == theirs


def test_binary_folds_match_upstream() -> None:
    bodies = []
    for op, (i, a), (j, b) in itertools.product(BINARY, enumerate(VALUES), enumerate(VALUES)):
        body = (f"  %a = index.constant {a}\n  %b = index.constant {b}\n"
                f"  %r = index.{op} %a, %b")
        bodies.append((f"{op}_{i}_{j}", body, "index"))
    _compare(bodies)


def test_cmp_folds_match_upstream() -> None:
    bodies = []
    for pred, (i, a), (j, b) in itertools.product(PREDICATES, enumerate(VALUES), enumerate(VALUES)):
        body = (f"  %a = index.constant {a}\n  %b = index.constant {b}\n"
                f"  %r = index.cmp {pred}(%a, %b)")
        bodies.append((f"cmp_{pred}_{i}_{j}", body, "i1"))
    for pred, bound_op, (i, c), (j, b) in itertools.product(
        PREDICATES, ["maxs", "maxu", "mins", "minu"], enumerate(VALUES[:8]), enumerate(VALUES[:8])
    ):
        body = (f"  %c = index.constant {c}\n  %b = index.constant {b}\n"
                f"  %m = index.{bound_op} %x, %c\n  %r = index.cmp {pred}(%m, %b)")
        bodies.append((f"bound_{pred}_{bound_op}_{i}_{j}", body, "i1"))
    for pred in PREDICATES:
        bodies.append((f"same_{pred}", f"  %r = index.cmp {pred}(%x, %x)", "i1"))
    _compare(bodies)


def test_identities_and_casts_match_upstream() -> None:
    bodies = [
        ("add0", "  %z = index.constant 0\n  %r = index.add %x, %z", "index"),
        ("sub0", "  %z = index.constant 0\n  %r = index.sub %x, %z", "index"),
        ("mul1", "  %o = index.constant 1\n  %r = index.mul %x, %o", "index"),
        ("mul0", "  %z = index.constant 0\n  %r = index.mul %x, %z", "index"),
        ("div1", "  %o = index.constant 1\n  %r = index.divs %x, %o", "index"),
    ]
    for i, v in enumerate([0, 5, -5, 2**40, -(2**40), 2**47 - 1]):
        for cast in ("casts", "castu"):
            body = f"  %v = arith.constant {v} : i48\n  %r = index.{cast} %v : i48 to index"
            bodies.append((f"{cast}_{i}", body, "index"))
    _compare(bodies)
