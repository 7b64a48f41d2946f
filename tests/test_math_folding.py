"""Differential tests of ``canonicalize``'s folding of math and arith ops
against upstream MLIR.

Each case runs through mlkit's ``canonicalize`` and upstream's; both results
are read back by upstream and compared as what each function returns: every
returned value written out as the ops and constants computing it. That way
the values must agree bit for bit (NaN signs included), while the order and
sharing of constants, which upstream's folder hoists and deduplicates, do not
matter. The cases are the chunks of the lit tests plus grids of special
values (signed zeros, NaNs of both signs, infinities, subnormals, extremes of
odd integer widths) through every op that folds.
"""

from __future__ import annotations

import itertools
import math

import pytest
from upstream_oracle import DIALECT_ROOT, ir, lit_chunks, mlkit_print, upstream_print
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, VectorType, f32

from mlkit.dialects.constant_folding import is_splat
from mlkit.dialects.math_folding import FOLDED, libm

PIPELINE = "builtin.module(canonicalize)"
LIT_FILES = (DIALECT_ROOT / "Math" / "canonicalize.mlir", DIALECT_ROOT / "arith" / "canonicalize.mlir")


def _describe(value: ir.Value) -> str:
    if isinstance(value, ir.BlockArgument):
        return f"%arg{value.arg_number}"
    op = value.owner
    attrs = op.attributes
    named = ", ".join(f"{attrs[i].name}={attrs[i].attr}" for i in range(len(attrs)))
    operands = ", ".join(_describe(operand) for operand in op.operands)
    return f"{op.name}{{{named}}}({operands})#{value.result_number} : {value.type}"


def returned(text: str) -> dict[str, list[str]]:
    """Each function's returned values, as upstream reads ``text``."""
    with ir.Context():
        module = ir.Module.parse(text)
        functions: dict[str, list[str]] = {}
        for op in module.body.operations:
            block = op.regions[0].blocks[0]
            terminator = list(block.operations)[-1]
            functions[str(op.attributes["sym_name"])] = [_describe(v) for v in terminator.operands]
        return functions


def assert_folds_as_upstream(text: str) -> None:
    expected = returned(upstream_print(text, generic=False, pipeline=PIPELINE))
    assert returned(mlkit_print(text, pipeline=PIPELINE)) == expected


@pytest.mark.parametrize(
    "chunk",
    [chunk for path in LIT_FILES for chunk in lit_chunks(path)],
    ids=[f"{path.parent.name}-{i}" for path in LIT_FILES for i in range(len(lit_chunks(path)))],
)
def test_lit_chunk_folds_as_upstream(chunk: str) -> None:
    assert_folds_as_upstream(chunk)


# -- grids of special values ----------------------------------------------------

FLOATS = {
    "f32": ["0.0", "-0.0", "0.5", "-0.5", "1.0", "-1.0", "2.5", "-2.5", "100.0", "1.0e30", "-7.25",
            "0x7FC00000", "0xFFC00000", "0x7F800000", "0xFF800000", "1.0e-40", "-1.5e-42"],
    "f64": ["0.0", "-0.0", "0.5", "-0.5", "1.0", "-1.0", "2.5", "-2.5", "100.0", "1.0e300",
            "0x7FF8000000000000", "0xFFF8000000000000", "0x7FF0000000000000",
            "0xFFF0000000000000", "4.9e-324"],
    "f16": ["0.0", "-0.0", "0.5", "-2.5", "3.0", "0x7E00", "0xFE00", "0x7C00", "1.0e-7"],
    "bf16": ["0.0", "-0.0", "2.5", "-2.5", "0x7FC0", "0xFF80", "1.0e-39"],
}  # fmt: skip
UNARY = sorted(
    name.removeprefix("math.") for name in FOLDED
    if name not in {"math.atan2", "math.copysign", "math.powf", "math.fpowi", "math.sincos"}
    and name not in {f"math.{i}" for i in ("absi", "ctlz", "cttz", "ctpop", "ipowi")}
)  # fmt: skip
CLASSIFY = {"isnan", "isinf", "isfinite", "isnormal"}


def _function(name: str, body: list[str], results: list[tuple[str, str]]) -> str:
    values, types = ", ".join(v for v, _ in results), ", ".join(t for _, t in results)
    lines = "\n  ".join(body)
    return f"func.func @{name}() -> ({types}) {{\n  {lines}\n  return {values} : {types}\n}}"


def _grid(name: str, rows: list[tuple[str, ...]], types: tuple[str, ...], op: str) -> str:
    """A function returning ``op`` (a format of ``{0}``, ``{1}``, ...) applied
    to constants: each row one application, ``types[i]`` the type of its
    ``i``th constant, ``types[-1]`` the result's."""
    body, results = [], []
    for i, row in enumerate(rows):
        names = [f"%c{i}_{j}" for j in range(len(row))]
        body += [f"{n} = arith.constant {v} : {t}" for n, v, t in zip(names, row, types, strict=False)]
        body.append(f"%r{i} = {op.format(*names)}")
        results.append((f"%r{i}", types[-1]))
    return _function(name, body, results)


def _dense(name: str, constants: list[tuple[str, str]], op: str, result: str) -> str:
    """A function returning ``op`` of dense constants ``(value, type)``."""
    body = [f"%c{j} = arith.constant dense<{v}> : {t}" for j, (v, t) in enumerate(constants)]
    body.append(f"%r = {op.format(*(f'%c{j}' for j in range(len(constants))))}")
    return _function(name, body, [("%r", result)])


def _unary_module(op: str) -> str:
    functions = []
    for type_, values in FLOATS.items():
        result = "i1" if op in CLASSIFY else type_
        rows = [(value,) for value in values]
        functions.append(_grid(f"{op}_{type_}", rows, (type_, result), f"math.{op} {{0}} : {type_}"))
    shaped = "vector<4xi1>" if op in CLASSIFY else "vector<4xf32>"
    for i, dense in enumerate(("[1.0, 2.0, 0.5, 3.0]", "[1.0, -2.0, 0.5, 0x7FC00000]", "-0.5", "0x7FC00000")):
        constants = [(dense, "vector<4xf32>")]
        functions.append(_dense(f"{op}_dense{i}", constants, f"math.{op} {{0}} : vector<4xf32>", shaped))
    return "\n".join(functions)


@pytest.mark.parametrize("op", UNARY)
def test_unary_float_op_folds_as_upstream(op: str) -> None:
    assert_folds_as_upstream(_unary_module(op))


@pytest.mark.parametrize("op", ["atan2", "copysign", "powf"])
def test_binary_float_op_folds_as_upstream(op: str) -> None:
    functions = []
    for type_, values in FLOATS.items():
        nans = [v for v in values if v.startswith("0x")][:2]
        rows = list(itertools.product(values[:6] + nans, ["0.0", "-0.0", "-3.0", "0.5", *nans]))
        types = (type_, type_, type_)
        functions.append(_grid(f"{op}_{type_}", rows, types, f"math.{op} {{0}}, {{1}} : {type_}"))
    assert_folds_as_upstream("\n".join(functions))


INTEGERS = {
    "i32": ["0", "1", "-1", "256", "0xFF0000FF", "-2147483648", "7"],
    "i7": ["0", "1", "-1", "-64", "5"],
    "i1": ["0", "1"],
    "index": ["0", "1", "-1", "12345"],
    "i128": ["0", "1", "-1", "170141183460469231731687303715884105727"],
}


@pytest.mark.parametrize("op", ["absi", "ctlz", "cttz", "ctpop"])
def test_integer_op_folds_as_upstream(op: str) -> None:
    functions = [
        _grid(f"{op}_{type_}", [(v,) for v in values], (type_, type_), f"math.{op} {{0}} : {type_}")
        for type_, values in INTEGERS.items()
    ]
    constants = [("[0, 1, -1, 96]", "vector<4xi8>")]
    functions.append(_dense(f"{op}_dense", constants, f"math.{op} {{0}} : vector<4xi8>", "vector<4xi8>"))
    assert_folds_as_upstream("\n".join(functions))


def test_ipowi_folds_as_upstream() -> None:
    functions = []
    for type_, values in INTEGERS.items():
        powers = values if type_ == "i1" else ["0", "1", "-1", "2", "3", "-2", "5"]
        bases = values if type_ == "i1" else [*values[:4], "2", "-2", "3"]
        rows = list(itertools.product(bases, powers))
        op = f"math.ipowi {{0}}, {{1}} : {type_}"
        functions.append(_grid(f"ipowi_{type_}", rows, (type_, type_, type_), op))
    assert_folds_as_upstream("\n".join(functions))


def test_fpowi_folds_as_upstream() -> None:
    functions = []
    for base, power in (("f32", "i32"), ("f64", "i64"), ("f32", "i64"), ("f16", "i32"), ("f64", "i1")):
        powers = ["0", "1"] if power == "i1" else ["0", "3", "-2", "16777217", "-128"]
        rows = list(itertools.product(FLOATS[base][:6] + ["1.0000001"], powers))
        op = f"math.fpowi {{0}}, {{1}} : {base}, {power}"
        functions.append(_grid(f"fpowi_{base}_{power}", rows, (base, power, base), op))
    constants = [("[1.5, 2.0]", "vector<2xf32>"), ("[2, -1]", "vector<2xi32>")]
    op = "math.fpowi {0}, {1} : vector<2xf32>, vector<2xi32>"
    functions.append(_dense("fpowi_dense", constants, op, "vector<2xf32>"))
    assert_folds_as_upstream("\n".join(functions))


PREDICATES = "eq ne slt sle sgt sge ult ule ugt uge".split()


@pytest.mark.parametrize("type_", ["i8", "i1", "index", "i7"])
def test_cmpi_of_constants_folds_as_upstream(type_: str) -> None:
    values = {"i8": ["0", "1", "-1", "127", "-128"], "i1": ["0", "1"], "index": ["0", "-1", "5"],
              "i7": ["-64", "63", "1"]}[type_]  # fmt: skip
    functions = [
        _grid(f"cmpi_{predicate}", list(itertools.product(values, values)), (type_, type_, "i1"),
              f"arith.cmpi {predicate}, {{0}}, {{1}} : {type_}")
        for predicate in PREDICATES
    ]  # fmt: skip
    assert_folds_as_upstream("\n".join(functions))


@pytest.mark.parametrize("predicate", PREDICATES)
def test_cmpi_shapes_fold_as_upstream(predicate: str) -> None:
    text = f"""func.func @f(%x: vector<2xi32>, %y: i8, %b: i1) -> (vector<4xi1>, vector<2xi1>, vector<2xi1>, i1, i1) {{
  %a = arith.constant dense<[1, -2, 3, 0]> : vector<4xi16>
  %c = arith.constant dense<[1, 2, -3, 0]> : vector<4xi16>
  %0 = arith.cmpi {predicate}, %a, %c : vector<4xi16>
  %1 = arith.cmpi {predicate}, %x, %x : vector<2xi32>
  %d = arith.constant dense<[3, 4]> : vector<2xi32>
  %2 = arith.cmpi {predicate}, %d, %x : vector<2xi32>
  %e = arith.constant -3 : i8
  %3 = arith.cmpi {predicate}, %e, %y : i8
  %true = arith.constant true
  %4 = arith.cmpi {predicate}, %b, %true : i1
  return %0, %1, %2, %3, %4 : vector<4xi1>, vector<2xi1>, vector<2xi1>, i1, i1
}}"""
    assert_folds_as_upstream(text)


# -- the rules behind the values --------------------------------------------------


def test_splat_means_same_bits() -> None:
    vector = VectorType(f32, [2])
    assert is_splat(DenseIntOrFPElementsAttr.from_list(vector, [math.nan, math.nan]))
    assert not is_splat(DenseIntOrFPElementsAttr.from_list(vector, [0.0, -0.0]))


def test_f32_folds_call_the_single_precision_function() -> None:
    """Upstream folds f32 with ``sinf``, ``expf``, ...; on glibc these differ
    in the last bit from the f64 function rounded to f32 for these inputs."""
    inputs = {"sin": 2.6526787281036377, "exp": -1.4230042695999146, "cosh": 1.3769793510437012}
    functions = [
        _grid(op, [(repr(x),)], ("f32", "f32"), f"math.{op} {{0}} : f32") for op, x in inputs.items()
    ]
    assert_folds_as_upstream("\n".join(functions))
    assert libm("sin", f32) is not None and libm("sin", VectorType(f32, [1])) is None
