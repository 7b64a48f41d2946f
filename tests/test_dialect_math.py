"""Differential tests of mlkit's ``math`` dialect against upstream MLIR.

The ops file must print (custom and generic) as IR upstream reads the same way,
every chunk of the invalid file must be rejected by upstream with the message
mlkit gives, the dialect must hold every op upstream's has, and the passes that
handle math ops generically (cse, canonicalize, elementwise-to-linalg, libm)
must treat the ops xDSL lacks as upstream does.
"""

from __future__ import annotations

import math

import pytest
from test_math_to_libm import LOWER
from upstream_oracle import DIALECT_ROOT, EXPECTED_ERROR, dialect_differential_tests, expected_error
from upstream_oracle import ir
from upstream_oracle import mlkit_print, run_in_upstream, upstream_print
from xdsl.dialects import math as xmath
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects import func
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, VectorType, f32, i1
from xdsl.ir import Block, Region
from xdsl.traits import Pure, SameOperandsAndResultType

from mlkit.diagnostics import DiagnosticError
from mlkit.dialects import DIALECTS, math as mmath
from mlkit.registry import import_object
from mlkit.syntax.printer import print_op

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = dialect_differential_tests(
    "Math"
)

LIBM_LIT = DIALECT_ROOT.parent / "Conversion" / "MathToLibm" / "erfc.mlir"
CHUNKS = (DIALECT_ROOT / "Math" / "invalid.mlir").read_text().split("// -----")


@pytest.mark.parametrize("chunk", CHUNKS, ids=[expected_error(c)[:60] for c in CHUNKS])
def test_invalid_same_message_in_both(chunk: str) -> None:
    message = expected_error(chunk)
    with pytest.raises(DiagnosticError) as ours:
        mlkit_print(chunk)
    assert message in str(ours.value)
    with ir.Context(), pytest.raises(ir.MLIRError) as theirs:
        ir.Module.parse(chunk)
    assert message in str(theirs.value)


def test_invalid_file_has_one_error_per_chunk() -> None:
    assert all(len(EXPECTED_ERROR.findall(chunk)) == 1 for chunk in CHUNKS)


# -- the dialect ----------------------------------------------------------------


def test_registered_dialect_is_mlkits() -> None:
    assert import_object(DIALECTS["math"]) is mmath.Math


def test_every_upstream_op_is_defined() -> None:
    """Upstream's op list, from the generated Python bindings of the wheel."""
    from torch_mlir.dialects import _math_ops_gen as generated

    upstream = {
        cls.OPERATION_NAME
        for cls in vars(generated).values()
        if isinstance(cls, type) and issubclass(cls, ir.OpView) and hasattr(cls, "OPERATION_NAME")
    }
    assert upstream == {op.name for op in mmath.Math.operations}


def test_xdsl_ops_are_kept() -> None:
    """Passes match xDSL's classes; the dialect must register those very
    classes, but for fma, whose rounding mode xDSL's lacks: its class is a
    subclass of xDSL's, which passes still match."""
    ours = set(mmath.Math.operations)
    assert set(xmath.Math.operations) - {xmath.FmaOp} <= ours
    assert ours - set(xmath.Math.operations) == {*mmath.NEW_OPS, mmath.FmaOp}
    assert issubclass(mmath.FmaOp, xmath.FmaOp)
    assert mmath.SinOp is xmath.SinOp  # looked up by class name


def test_fma_rounding_modes_read_as_upstream_reads_them() -> None:
    text = (DIALECT_ROOT / "Math" / "fma-rounding.mlir").read_text()
    printed = mlkit_print(text)
    assert "downward fastmath<contract>" in printed
    assert upstream_print(printed) == upstream_print(text)
    assert upstream_print(mlkit_print(text, generic=True)) == upstream_print(text)


@pytest.mark.parametrize("op", mmath.NEW_OPS, ids=lambda op: op.name)
def test_new_op_traits(op: type) -> None:
    assert op.has_trait(Pure)
    same_type = op.name in {"math.sincos", "math.clampf", "math.erfc"}
    assert op.has_trait(SameOperandsAndResultType) == same_type


def test_builders_verify_and_print() -> None:
    vector, tensor = VectorType(f32, [4]), TensorType(f32, [2, DYNAMIC_INDEX])
    block = Block(arg_types=[f32, vector, tensor])
    x, v, t = block.args
    fast = FastMathFlagsAttr("fast")
    ops = [
        sincos := mmath.SincosOp(v, fast),
        mmath.ClampFOp(x, x, x),
        mmath.ErfcOp(t),
        isnan := mmath.IsNaNOp(t, FastMathFlagsAttr("none")),
        isinf := mmath.IsInfOp(v, fast),
        mmath.IsFiniteOp(x),
        mmath.IsNormalOp(x),
    ]
    block.add_ops([*ops, func.ReturnOp(sincos.sin, sincos.cos)])
    for op in ops:
        op.verify()
    assert isnan.result.type == TensorType(i1, [2, DYNAMIC_INDEX])
    assert isinf.result.type == VectorType(i1, [4])
    function = func.FuncOp("f", ([f32, vector, tensor], [vector, vector]), Region(block))
    printed = print_op(ModuleOp([function]))
    assert "math.sincos %arg1 fastmath<fast> : vector<4xf32>" in printed
    assert "math.isinf %arg1 {fastmath = #arith.fastmath<fast>} : vector<4xf32>" in printed
    assert "math.isnan %arg2 : tensor<2x?xf32>" in printed
    # upstream reads the custom form as the same IR as the generic one
    generic = print_op(ModuleOp([function.clone()]), generic=True)
    assert upstream_print(printed) == upstream_print(generic)


def test_fastmath_in_attr_dict_is_the_property() -> None:
    """Upstream reads ``{fastmath = ...}`` in a custom form as the property,
    even for ops that also have the ``fastmath<...>`` keyword."""
    text = (
        "func.func @f(%a: f32) -> f32 {\n"
        "  %0 = math.erfc %a {fastmath = #arith.fastmath<nnan>} : f32\n  return %0 : f32\n}\n"
    )
    assert "math.erfc %arg0 fastmath<nnan> : f32" in mlkit_print(text)
    assert "<{fastmath = #arith.fastmath<nnan>}>" in mlkit_print(text, generic=True)


# -- passes that rely on the traits ---------------------------------------------

PURE_INPUT = """
func.func @f(%a: f32, %b: f32) -> (f32, f32, f32, f32, i1, i1, i1, f32) {
  %s, %c = math.sincos %a : f32
  %s2, %c2 = math.sincos %a : f32
  %s3, %c3 = math.sincos %a fastmath<fast> : f32
  %k = math.clampf %a to [%b, %b] : f32
  %k2 = math.clampf %a to [%b, %b] : f32
  %n = math.isnan %a : f32
  %n2 = math.isnan %a : f32
  %i = math.isinf %a : f32
  %dead = math.isfinite %a : f32
  %dead2 = math.isnormal %b : f32
  %dead3, %dead4 = math.sincos %b : f32
  %dead5 = math.clampf %b to [%a, %a] : f32
  %e = math.erfc %a : f32
  %e2 = math.erfc %a : f32
  %sum = arith.addf %e, %e2 : f32
  return %s, %c2, %s3, %k2, %n, %n2, %i, %sum : f32, f32, f32, f32, i1, i1, i1, f32
}
"""


@pytest.mark.parametrize(
    "pipeline", ["builtin.module(func.func(cse))", "builtin.module(canonicalize)"]
)
def test_pure_ops_merge_and_die_as_upstream(pipeline: str) -> None:
    ours = mlkit_print(PURE_INPUT, pipeline=pipeline)
    assert "dead" not in ours and "isfinite" not in ours and "isnormal" not in ours
    assert upstream_print(ours) == upstream_print(PURE_INPUT, pipeline=pipeline)


ELEMENTWISE_INPUT = """
func.func @f(%t: tensor<4x?xf32>)
    -> (tensor<4x?xi1>, tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>) {
  %n = math.isnan %t : tensor<4x?xf32>
  %s, %c = math.sincos %t fastmath<fast> : tensor<4x?xf32>
  %k = math.clampf %s to [%c, %t] : tensor<4x?xf32>
  return %n, %s, %c, %k : tensor<4x?xi1>, tensor<4x?xf32>, tensor<4x?xf32>, tensor<4x?xf32>
}
"""


def test_elementwise_to_linalg_as_upstream() -> None:
    """The new ops are ElementwiseMappable: an i1 result, two results, three operands."""
    pipeline = "builtin.module(func.func(convert-elementwise-to-linalg))"
    ours = mlkit_print(ELEMENTWISE_INPUT, pipeline=pipeline)
    assert ours.count("linalg.generic") == 3
    assert upstream_print(ours) == upstream_print(ELEMENTWISE_INPUT, pipeline=pipeline)


@pytest.mark.parametrize(
    "op", ["%x, %y = math.sincos %a : f32", "%x = math.clampf %a to [%a, %a] : f32",
           "%x = math.isnan %a : f32"],
)  # fmt: skip
def test_libm_refuses_ops_without_a_function(op: str) -> None:
    """Upstream's convert-math-to-libm has no call for these and fails."""
    text = f"func.func @f(%a: f32) {{\n  {op}\n  return\n}}\n"
    pipeline = "builtin.module(convert-math-to-libm)"
    with pytest.raises(DiagnosticError, match="failed to legalize operation"):
        mlkit_print(text, pipeline=pipeline)
    with pytest.raises(ir.MLIRError, match="failed to legalize operation"):
        upstream_print(text, pipeline=pipeline)


def test_convert_math_to_llvm_on_the_new_ops_as_upstream() -> None:
    """isnan/isfinite/sincos lower (to is.fpclass and sincos) where upstream
    lowers them; clampf, erfc, isinf and isnormal stay, as upstream's do."""
    text = (DIALECT_ROOT / "Math" / "ops.mlir").read_text()
    pipeline = "builtin.module(convert-math-to-llvm)"
    ours = mlkit_print(text, pipeline=pipeline)
    assert upstream_print(ours) == upstream_print(text, pipeline=pipeline)
    for name in ("clampf", "erfc", "isinf", "isnormal"):
        assert f"math.{name} " in ours, name


@pytest.mark.parametrize(
    "chunk", [c for c in LIBM_LIT.read_text().split("// -----") if "func.func" in c]
)
def test_erfc_lit_chunks_same_as_upstream(chunk: str) -> None:
    pipeline = "builtin.module(convert-math-to-libm)"
    ours = mlkit_print(chunk, pipeline=pipeline)
    assert upstream_print(ours) == upstream_print(chunk, pipeline=pipeline)


# -- erfc through libm, run ------------------------------------------------------

ERFC_KERNEL = """
func.func @k(%a: f64) -> f64 attributes {llvm.emit_c_interface} {
  %x = arith.truncf %a : f64 to f32
  %v = vector.broadcast %x : f32 to vector<2xf32>
  %r = math.erfc %v : vector<2xf32>
  %s = vector.extract %r[1] : f32 from vector<2xf32>
  %w = arith.extf %s : f32 to f64
  %d = math.erfc %a : f64
  %sum = arith.addf %w, %d : f64
  return %sum : f64
}
"""


def test_erfc_calls_libm() -> None:
    """mlkit's erfcf/erfc calls, run in upstream's ExecutionEngine, give what
    upstream's own convert-math-to-libm gives, and libm's number."""
    lowered = mlkit_print(ERFC_KERNEL, pipeline="builtin.module(convert-math-to-libm)")
    assert "math." not in lowered and "@erfcf" in lowered and "@erfc(" in lowered
    ours = run_in_upstream(lowered, f"builtin.module({LOWER})", 0.5)
    theirs = run_in_upstream(ERFC_KERNEL, f"builtin.module(convert-math-to-libm,{LOWER})", 0.5)
    assert ours == theirs
    assert ours == pytest.approx(2 * math.erfc(0.5), rel=1e-6)
