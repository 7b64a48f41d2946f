"""``convert-math-to-libm``: math ops to calls of the C math library, as
upstream's MathToLibm lowers them.

A scalar ``f32`` op calls the ``f``-suffixed function (``@tanhf``), an
``f64`` op the plain one (``@tanh``); each is declared once per nearest
symbol table as ``func.func private @tanhf(f32) -> f32 attributes
{llvm.readnone}``, at its start, unless a symbol of that name exists. ``f16``
and ``bf16`` operands are extended to ``f32`` and the result truncated back.
Vectors are unrolled element by element with ``vector.extract`` and
``vector.insert`` into a zero constant. Fastmath flags are dropped, as
upstream drops them.

Like upstream, the pass marks the whole math dialect illegal: any math op it
cannot convert (``ctlz``, ``copysign``, ``fpowi``, an ``f80`` operand, ...)
fails the pass with upstream's "failed to legalize" error. Unlike upstream,
which unrolls a scalable vector as if it had its minimum size, a scalable
vector is an error too.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, func, vector
from xdsl.dialects.builtin import (
    BFloat16Type,
    DenseIntOrFPElementsAttr,
    Float16Type,
    Float32Type,
    Float64Type,
    ModuleOp,
    StringAttr,
    UnitAttr,
    VectorType,
    f32,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint
from xdsl.traits import SymbolTable

from mlkit.diagnostics.emit import emit_error
from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns

# math op name -> the C math library's function for f64; the f32 one adds "f"
LIBM_FUNCTIONS: dict[str, str] = {
    "math.absf": "fabs", "math.acos": "acos", "math.acosh": "acosh", "math.asin": "asin",
    "math.asinh": "asinh", "math.atan": "atan", "math.atan2": "atan2", "math.atanh": "atanh",
    "math.cbrt": "cbrt", "math.ceil": "ceil", "math.cos": "cos", "math.cosh": "cosh",
    "math.erf": "erf", "math.erfc": "erfc", "math.exp": "exp", "math.exp2": "exp2",
    "math.expm1": "expm1", "math.floor": "floor", "math.fma": "fma", "math.log": "log",
    "math.log10": "log10", "math.log1p": "log1p", "math.log2": "log2", "math.powf": "pow",
    "math.round": "round", "math.roundeven": "roundeven", "math.rsqrt": "rsqrt",
    "math.sin": "sin", "math.sinh": "sinh", "math.sqrt": "sqrt", "math.tan": "tan",
    "math.tanh": "tanh", "math.trunc": "trunc",
}  # fmt: skip

# math op name -> libm function for f32 (the f64 one drops the trailing "f")
LIBM_NAMES: dict[str, str] = {op: f"{function}f" for op, function in LIBM_FUNCTIONS.items()}


def _libm_name(op_name: str, type: Attribute) -> str | None:
    name = LIBM_NAMES[op_name]
    if isinstance(type, Float64Type):
        return name[:-1]
    return name if isinstance(type, Float32Type) else None


def _can_lower(op: Operation) -> bool:
    if op.name not in LIBM_NAMES or "roundingmode" in op.properties:
        return False  # libm's fma rounds to nearest, not in the op's rounding mode
    type = op.results[0].type
    if isinstance(type, VectorType):
        if any(type.get_scalable_dims()):
            return False
        type = type.element_type
    return isinstance(type, (Float16Type, BFloat16Type, Float32Type, Float64Type))


class MathToLibmPattern(RewritePattern):
    """Rewrites a math op into libm calls, declaring the functions it calls."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if _can_lower(op):
            self.lower(op, rewriter)

    def declare(self, rewriter: PatternRewriter, op: Operation, name: str, scalar_type: Attribute, arity: int) -> None:
        table_op = op.parent_op()
        while table_op is not None and not table_op.has_trait(SymbolTable):
            table_op = table_op.parent_op()
        assert table_op is not None
        if SymbolTable.lookup_symbol(table_op, name) is not None:
            return
        decl = func.FuncOp.external(name, [scalar_type] * arity, [scalar_type])
        decl.sym_visibility = StringAttr("private")
        decl.attributes["llvm.readnone"] = UnitAttr()
        block = table_op.regions[0].blocks.first
        assert block is not None
        rewriter.insert(decl, InsertPoint.at_start(block))

    def scalar_call(self, rewriter: PatternRewriter, op: Operation, operands: Sequence[SSAValue], type: Attribute) -> list[Operation]:
        """The ops computing ``op`` on scalar ``operands`` of ``type``."""
        ops: list[Operation] = []
        if isinstance(type, (Float16Type, BFloat16Type)):
            extended: list[SSAValue] = []
            for operand in operands:
                ext = arith.ExtFOp(operand, f32)
                ops.append(ext)
                extended.append(ext.result)
            call_ops = self.scalar_call(rewriter, op, extended, f32)
            trunc = arith.TruncFOp(call_ops[-1].results[0], type)
            return ops + call_ops + [trunc]
        name = _libm_name(op.name, type)
        assert name is not None
        self.declare(rewriter, op, name, type, len(operands))
        return [func.CallOp(name, list(operands), [type])]

    def lower(self, op: Operation, rewriter: PatternRewriter) -> None:
        type = op.results[0].type
        if not isinstance(type, VectorType):
            ops = self.scalar_call(rewriter, op, op.operands, type)
            rewriter.replace(op, ops, [ops[-1].results[0]])
            return
        element = type.element_type
        shape = type.get_shape()
        zero = arith.ConstantOp(
            DenseIntOrFPElementsAttr.from_list(type, [0.0] * max(1, type.element_count()))
        )
        ops: list[Operation] = [zero]
        acc: SSAValue = zero.result
        for position in itertools.product(*(range(d) for d in shape)):
            pieces: list[SSAValue] = []
            for operand in op.operands:
                extract = vector.ExtractOp(operand, list(position), element)
                ops.append(extract)
                pieces.append(extract.result)
            ops += self.scalar_call(rewriter, op, pieces, element)
            insert = vector.InsertOp(ops[-1].results[0], acc, list(position))
            ops.append(insert)
            acc = insert.result
        rewriter.replace(op, ops, [acc])


@dataclass(frozen=True)
class ConvertMathToLibmPass(ModulePass):
    """Convert Math dialect to libm calls"""

    name = "convert-math-to-libm"
    anchor: ClassVar[str] = "builtin.module"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        math_ops = [o for o in op.walk() if o.dialect_name() == "math"]
        for math_op in math_ops:
            if not _can_lower(math_op):
                raise emit_error(
                    ctx,
                    math_op,
                    f"failed to legalize operation '{math_op.name}' that was explicitly marked illegal",
                )
        apply_conversion_patterns(op, math_to_libm_patterns(), apply_recursively=False)


def math_to_libm_patterns() -> list[RewritePattern]:
    """The patterns of this conversion, for other conversions to include."""
    return [MathToLibmPattern()]


