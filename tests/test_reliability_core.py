"""Reliability of the core: bad input is a located error, quickly.

Each test pins one fix: strings lexed in linear time, verification linear in
the number of blocks (and scf-to-cf in the nesting depth), upstream's dominance
and terminator checks, absurd types refused, f80/f128 constants printed, and
out-of-range static index lists refused.
"""

from __future__ import annotations

import io
import re
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest

from mlkit.driver.deep_stack import run_with_deep_stack
from mlkit.tools.opt import run

T = TypeVar("T")
LOCATED = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


def opt(path: Path, *argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = run([str(path), *argv], out, err)
    return rc, out.getvalue(), err.getvalue()


def opt_text(tmp_path: Path, text: str, *argv: str) -> tuple[int, str, str]:
    path = tmp_path / "in.mlir"
    path.write_text(text)
    return opt(path, *argv)


def located(err: str) -> re.Match[str]:
    m = LOCATED.match(err.splitlines()[0] if err else "")
    assert m is not None, f"not a located error: {err[:300]!r}"
    assert "Traceback" not in err and "internal error" not in err
    return m


def bounded(fn: Callable[[], T], seconds: float) -> T:
    """``fn()`` on a daemon thread; fail (rather than hang) past ``seconds``."""
    result: list[T] = []
    error: list[BaseException] = []

    def target() -> None:
        try:
            result.append(fn())
        except BaseException as exc:  # re-raised below
            error.append(exc)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still running after {seconds} s"
    if error:
        raise error[0]
    return result[0]


# -- 1. string literals --------------------------------------------------------


def test_unterminated_string_is_located_and_fast(tmp_path: Path) -> None:
    head = 'func.func @f() attributes {note = "'
    text = head + "a" * 10_000 + "} { return }\n"
    rc, out, err = bounded(lambda: opt_text(tmp_path, text), 20)  # the old regex never ends
    m = located(err)
    assert (rc, out) == (1, "")
    assert m["msg"] == "expected '\"' in string literal"
    assert (m["line"], m["col"]) == ("1", str(len(text)))  # at the newline, as upstream


def test_the_briefs_string_is_located(tmp_path: Path) -> None:
    text = 'func.func @f() attributes {note = "this string was never closed on purpose} { return }'
    rc, _, err = bounded(lambda: opt_text(tmp_path, text), 20)
    assert rc == 1 and located(err)["msg"] == "expected '\"' in string literal"


def test_many_backslashes_are_linear(tmp_path: Path) -> None:
    escapes = "\\\\" * 5_000
    bad = f'func.func @f() attributes {{note = "{escapes}\\q"}} {{\n  return\n}}\n'
    rc, _, err = bounded(lambda: opt_text(tmp_path, bad), 20)
    m = located(err)
    assert rc == 1 and m["msg"] == "unknown escape in string literal"
    assert int(m["col"]) == bad.index("\\q") + 1
    unclosed = f'func.func @f() attributes {{note = "{escapes}\n'
    rc, _, err = bounded(lambda: opt_text(tmp_path, unclosed), 20)
    assert rc == 1 and located(err)["msg"] == "expected '\"' in string literal"


def test_escapes_still_decode(tmp_path: Path) -> None:
    text = 'func.func @f() attributes {note = "a\\n\\t\\"\\\\\\41"} {\n  return\n}\n'
    rc, out, err = opt_text(tmp_path, text)
    assert (rc, err) == (0, "")
    assert 'note = "a\\0A\\09\\22\\\\A"' in out


def test_expectation_parsing_is_linear() -> None:
    """--verify-diagnostics searched every line with a regex that rescans the
    rest of the line from each ``expected-``: a 68K-character line took 8 s."""
    from mlkit.diagnostics.expectations import parse_expectations

    line = "// " + "expected-error {{" * 20_000
    found, problems = bounded(lambda: parse_expectations(line + "\n", "x.mlir"), 5)
    assert found == [] and len(problems) == 1
    found, problems = bounded(lambda: parse_expectations(line + "}}\n", "x.mlir"), 5)
    assert len(found) == 1 and problems == []


# -- 2. linear verification ------------------------------------------------------


def branch_chain(n: int) -> str:
    lines = ["func.func @f(%x: i32) -> i32 {", "  cf.br ^bb1(%x : i32)"]
    for i in range(1, n):
        lines += [f"^bb{i}(%v{i}: i32):", f"  cf.br ^bb{i + 1}(%v{i} : i32)"]
    lines += [f"^bb{n}(%v{n}: i32):", f"  return %v{n} : i32", "}"]
    return "\n".join(lines) + "\n"


def nested_ifs(n: int) -> str:
    lines = ["func.func @f(%c: i1, %x: i32) -> i32 {"]
    lines += [f"  %r{i} = scf.if %c -> (i32) {{" for i in range(n)]
    lines.append("  scf.yield %x : i32")
    for i in reversed(range(n)):
        lines.append("  } else {\n  scf.yield %x : i32\n  }")
        if i > 0:
            lines.append(f"  scf.yield %r{i} : i32")
    lines.append("  return %r0 : i32\n}")
    return "\n".join(lines) + "\n"


def python_calls(work: Callable[[], object]) -> int:
    """How many Python functions ``work`` calls: a measure of its work that,
    unlike time, does not depend on the machine or its load."""
    count = 0

    def profile(frame: object, event: str, arg: object) -> None:
        nonlocal count
        if event == "call":
            count += 1

    sys.setprofile(profile)
    try:
        work()
    finally:
        sys.setprofile(None)
    return count


def test_verification_is_linear_in_blocks() -> None:
    from mlkit.context import make_context
    from mlkit.diagnostics.verifier import verify_op_tree
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    ctx = make_context(default_registry())
    verify_op_tree(parse_module(ctx, branch_chain(50), "warm.mlir"))
    work: dict[int, tuple[int, int]] = {}
    for n in (500, 4000):
        modules: list[Any] = []
        parsing = python_calls(lambda: modules.append(parse_module(ctx, branch_chain(n), "c.mlir")))
        work[n] = (parsing, python_calls(lambda: verify_op_tree(modules[0])))
    # 8x the blocks: linear work is ~8x; the quadratic verifier did ~27x overall
    assert work[4000][0] / work[500][0] < 12, work
    assert work[4000][1] / work[500][1] < 12, work


def test_scf_to_cf_is_linear_in_nesting() -> None:
    def measure() -> dict[int, int]:
        from mlkit.context import make_context
        from mlkit.diagnostics.verifier import verify_op_tree
        from mlkit.passes.conversion.scf_to_cf import ConvertSCFToCF
        from mlkit.plugins import default_registry
        from mlkit.syntax.parser import parse_module

        ctx = make_context(default_registry())
        work: dict[int, int] = {}
        for n in (20, 100, 400):
            module = parse_module(ctx, nested_ifs(n), "ifs.mlir")

            def lower() -> None:
                verify_op_tree(module)
                ConvertSCFToCF().apply(ctx, module)
                verify_op_tree(module)

            work[n] = python_calls(lower)
        return work

    work = run_with_deep_stack(measure)
    assert work[400] / work[100] < 6, work  # 4x the depth; quadratic was ~16x


def test_linear_walker_visits_in_xdsls_order() -> None:
    from xdsl.ir import Operation
    from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern

    from mlkit.context import make_context
    from mlkit.passes.transforms.rewrite_driver import LinearWalker
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    class Nothing(RewritePattern):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
            pass

    module = parse_module(make_context(default_registry()), nested_ifs(3) + branch_chain(3), "w")
    for reverse in (False, True):
        for regions_first in (False, True):
            for root in (module, module.body, module.body.block):
                flags = {"walk_reverse": reverse, "walk_regions_first": regions_first}
                ours = LinearWalker(Nothing(), **flags)
                xdsl = PatternRewriteWalker(Nothing(), **flags)
                ours._populate_worklist(root)  # pyright: ignore[reportPrivateUsage]
                xdsl._populate_worklist(root)  # pyright: ignore[reportPrivateUsage]
                assert ours._worklist._stack == xdsl._worklist._stack  # pyright: ignore


def test_scf_to_cf_still_lowers_nested_ifs(tmp_path: Path) -> None:
    rc, out, err = opt_text(tmp_path, nested_ifs(3), "--convert-scf-to-cf")
    assert (rc, err) == (0, "")
    assert "scf." not in out and out.count("cf.cond_br") == 3


# -- 3. dominance -----------------------------------------------------------------

DOMINANCE_ERRORS = {
    "use_before_def": (
        "func.func @f(%z: i32) -> i32 {\n  %a = arith.addi %b, %b : i32\n"
        "  %b = arith.addi %z, %z : i32\n  return %a : i32\n}\n",
        (2, "operand defined here (op in the same block)", 3),
    ),
    "self_reference": (
        "func.func @f(%z: i32) -> i32 {\n  %a = arith.addi %a, %z : i32\n  return %a : i32\n}\n",
        (2, "operand defined here (op in the same block)", 2),
    ),
    "one_branch_only": (
        "func.func @f(%c: i1, %z: i32) -> i32 {\n  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n"
        "  %x = arith.addi %z, %z : i32\n  cf.br ^bb3\n^bb2:\n  cf.br ^bb3\n^bb3:\n"
        "  return %x : i32\n}\n",
        (9, "operand defined here (op in the same region)", 4),
    ),
}


@pytest.mark.parametrize("case", sorted(DOMINANCE_ERRORS))
def test_dominance_violations_are_rejected(case: str, tmp_path: Path) -> None:
    text, (line, note, note_line) = DOMINANCE_ERRORS[case]
    rc, out, err = opt_text(tmp_path, text)
    m = located(err)
    assert (rc, out) == (1, "")
    assert m["msg"] == "operand #0 does not dominate this use"
    assert int(m["line"]) == line
    assert f":{note_line}:" in err and f"note: {note}" in err


LATER_REGION_ARGUMENT = (
    "func.func @f(%c: i1, %z: index) {\n  scf.if %c {\n    %a = arith.addi %i, %i : index\n"
    "  }\n  scf.for %i = %z to %z step %z {\n  }\n  return\n}\n"
)


def test_a_later_region_argument_used_before_is_already_in_use(tmp_path: Path) -> None:
    """Upstream's parser refuses a region argument named as a value used
    before it (a forward reference), before dominance is checked."""
    rc, out, err = opt_text(tmp_path, LATER_REGION_ARGUMENT)
    m = located(err)
    assert (rc, out) == (1, "")
    assert m["msg"] == "region entry argument '%i' is already in use"
    assert int(m["line"]) == 5
    assert ":3:21: note: previously referenced here" in err


def test_dominance_allows_what_upstream_allows(tmp_path: Path) -> None:
    text = (
        "func.func @f(%c: i1, %z: i32) -> i32 {\n  %y = arith.addi %z, %z : i32\n"
        "  cf.cond_br %c, ^bb1, ^bb2\n^bb1:\n  cf.br ^bb3(%y : i32)\n^bb2:\n"
        "  cf.br ^bb3(%z : i32)\n^bb3(%r: i32):\n  %w = scf.if %c -> (i32) {\n"
        "    %q = arith.addi %r, %y : i32\n    scf.yield %q : i32\n  } else {\n"
        "    scf.yield %r : i32\n  }\n  return %w : i32\n"
        "^dead:\n  %u = arith.addi %v, %v : i32\n  %v = arith.addi %u, %z : i32\n"
        "  cf.br ^dead\n}\n"
    )
    rc, _, err = opt_text(tmp_path, text)
    assert (rc, err) == (0, "")


def test_dominance_of_ir_built_in_python() -> None:
    """A pass that leaves a use before its definition fails verification."""
    from xdsl.dialects import arith, func
    from xdsl.dialects.builtin import ModuleOp, i32
    from xdsl.ir import Block, Region

    from mlkit.diagnostics import DiagnosticError
    from mlkit.diagnostics.verifier import verify_op_tree

    block = Block(arg_types=[i32])
    first = arith.AddiOp(block.args[0], block.args[0])
    second = arith.AddiOp(first.result, first.result)
    block.add_ops([second, first, func.ReturnOp()])  # `second` uses `first` before it
    module = ModuleOp([func.FuncOp("f", ((i32,), ()), Region(block))])
    with pytest.raises(DiagnosticError, match="operand #0 does not dominate this use"):
        verify_op_tree(module)


def test_verifying_a_nested_op_trusts_values_from_above() -> None:
    """A pass anchored below the module verifies only its op: values from
    enclosing regions are the enclosing verification's job."""
    from mlkit.context import make_context
    from mlkit.diagnostics.verifier import verify_op_tree
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module

    text = LATER_REGION_ARGUMENT.replace("%i, %i", "%z, %z")
    module = parse_module(make_context(default_registry()), text, "nested.mlir")
    func = module.body.block.first_op
    assert func is not None
    if_op = func.regions[0].block.first_op
    assert if_op is not None and if_op.name == "scf.if"
    verify_op_tree(func)
    verify_op_tree(if_op)


def test_isolated_from_above_is_located_at_the_user(tmp_path: Path) -> None:
    text = (
        'func.func @f(%a: i32) {\n  "builtin.module"() ({\n    func.func @g() -> i32 {\n'
        "      return %a : i32\n    }\n  }) : () -> ()\n  return\n}\n"
    )
    rc, _, err = opt_text(tmp_path, text)
    m = located(err)
    assert rc == 1 and m["msg"] == "'func.return' op using value defined outside the region"
    assert ":3:5: note: required by region isolation constraints" in err


# -- 4. terminators ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "message", "line"),
    [
        ("  %0 = arith.addi %a, %a : i32\n", 'block with no terminator, has %0 = "arith.addi"', 2),
        ("  cf.br ^bb1\n^bb1:\n", "empty block: expect at least a terminator", 1),
        ("  cf.br ^bb1\n^bb1:\n  %0 = arith.addi %a, %a : i32\n", "block with no terminator", 4),
    ],
)
def test_blocks_need_terminators(body: str, message: str, line: int, tmp_path: Path) -> None:
    rc, _, err = opt_text(tmp_path, f"func.func @f(%a: i32) {{\n{body}}}\n")
    m = located(err)
    assert rc == 1 and m["msg"].startswith(message) and int(m["line"]) == line


# -- 5. absurd types -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("type", "message"),
    [
        ("i99999999", "integer bitwidth is limited to 16777215 bits"),
        ("ui16777216", "integer bitwidth is limited to 16777215 bits"),
        ("i99999999999", "invalid integer width"),
        ("memref<99999999999999999999xf32>", "invalid dimension"),
        ("tensor<4x9223372036854775808xf32>", "invalid dimension"),
    ],
)
def test_absurd_types_are_located_errors(type: str, message: str, tmp_path: Path) -> None:
    text = f"func.func @f(%a: {type}) {{\n  return\n}}\n"
    rc, _, err = opt_text(tmp_path, text)
    m = located(err)
    assert rc == 1 and m["msg"] == message
    assert int(m["col"]) == text.index(type) + 1 + (type.index("9") if "<" in type else 0)


def test_largest_legal_types_still_parse(tmp_path: Path) -> None:
    text = "func.func @f(%a: i16777215, %b: tensor<9223372036854775807xf32>) {\n  return\n}\n"
    rc, out, err = opt_text(tmp_path, text)
    assert (rc, err) == (0, "") and "i16777215" in out


# -- 6. f80 and f128 -------------------------------------------------------------------


def test_wide_float_constants_round_trip(tmp_path: Path) -> None:
    text = (
        "func.func @f() -> (f80, f128, f80, f128) {\n"
        "  %a = arith.constant 1.5 : f80\n  %b = arith.constant 1.0 : f128\n"
        "  %c = arith.constant 0x7FFF8000000000000000 : f80\n"
        "  %d = arith.constant 0.123456789 : f128\n"
        "  return %a, %b, %c, %d : f80, f128, f80, f128\n}\n"
    )
    rc, out, err = opt_text(tmp_path, text)
    assert (rc, err) == (0, "")
    for literal in ("1.500000e+00 : f80", "1.000000e+00 : f128", "0x7FFF8000000000000000 : f80",
                    "0.123456789 : f128"):
        assert literal in out
    rc, again, err = opt_text(tmp_path, out)
    assert (rc, err, again) == (0, "", out)


@pytest.mark.parametrize(
    ("literal", "message"),
    [
        ("0x3FFF8000000000000001 : f80", "is not exactly representable"),  # 64 mantissa bits
        ("1.0e400 : f128", "f128 constant is out of the range mlkit holds (f64)"),
    ],
)
def test_wide_floats_no_f64_holds_are_refused(literal: str, message: str, tmp_path: Path) -> None:
    type = literal.rsplit(" ", 1)[1]
    body = f"  %a = arith.constant {literal}\n  return %a : {type}\n"
    text = f"func.func @f() -> {type} {{\n{body}}}\n"
    rc, _, err = opt_text(tmp_path, text)
    m = located(err)
    assert rc == 1 and message in m["msg"] and (m["line"], m["col"]) == ("2", "23")


def test_wide_float_bit_patterns() -> None:
    from xdsl.dialects.builtin import f80, f128

    from mlkit.syntax.wide_floats import format_wide_float, special_bits, wide_float_from_bits

    assert wide_float_from_bits(0x3FFF8000000000000000, f80) == 1.0
    assert wide_float_from_bits(0xC000A000000000000000, f80) == -2.5
    assert wide_float_from_bits(0x3FFF8000000000000000000000000000, f128) == 1.5
    assert wide_float_from_bits(0x3FFF8000000000000001, f80) is None  # needs 64 bits
    assert wide_float_from_bits(0x7FFE8000000000000000, f80) is None  # beyond f64's range
    assert special_bits(float("-inf"), f128) == 0xFFFF0000000000000000000000000000
    assert format_wide_float(1e-7, f80) == "1.000000e-07"
    assert format_wide_float(1.234567891e-7, f80) == "1.234567891e-07"
    assert format_wide_float(float("nan"), f80) == "0x7FFFC000000000000000"


# -- 7. static index lists ---------------------------------------------------------------


@pytest.mark.parametrize("value", ["9223372036854775808", "-9223372036854775809"])
def test_out_of_range_static_offsets_are_located(value: str, tmp_path: Path) -> None:
    text = (
        "func.func @f(%t: tensor<8xf32>) -> tensor<2xf32> {\n"
        f"  %0 = tensor.extract_slice %t[{value}] [2] [1] : tensor<8xf32> to tensor<2xf32>\n"
        "  return %0 : tensor<2xf32>\n}\n"
    )
    rc, out, err = opt_text(tmp_path, text)
    m = located(err)
    assert (rc, out) == (1, "") and m["line"] == "2"
