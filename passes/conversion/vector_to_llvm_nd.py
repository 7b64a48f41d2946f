"""Shared helpers for lowerings that work on 1-D vectors: LLVM has no n-D
vectors, so an n-D value becomes nested ``!llvm.array``s of 1-D vectors
(upstream's ``LLVM::detail::handleMultidimensionalVectors``), and the fastmath
flags of arith/math ops become ``#llvm.fastmath`` (upstream's
``AttrConvertFastMathToLLVM``)."""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence

from mlkit.dialects.llvm import (
    ConstantOp,
    ExtractValueOp,
    FastMathAttr,
    InsertValueOp,
    LLVMArrayType,
    PoisonOp,
)
from mlkit.passes.conversion.llvm_common.type_converter import ConversionState
from xdsl.dialects.arith import FastMathFlagsAttr
from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerType,
    VectorType,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.pattern_rewriter import RewritePattern

from mlkit.passes.transforms.rewrite_driver import apply_conversion_patterns

OneDBuilder = Callable[[Attribute, Sequence[SSAValue]], list[Operation]]
"""Builds the ops for one 1-D slice: gets the 1-D LLVM type and the slice's
operands, returns the new ops, the last of which yields the slice's result."""


def llvm_fastmath(flags: Attribute | None) -> FastMathAttr:
    """``#arith.fastmath<...>`` as ``#llvm.fastmath<...>`` (same flag names)."""
    if not isinstance(flags, FastMathFlagsAttr):
        return FastMathAttr()
    return FastMathAttr([str(flag.value) for flag in flags.data])


def is_llvm_scalar_or_1d(type: Attribute) -> bool:
    """A type LLVM takes as is: an integer, a float, or a 1-D (possibly
    scalable) vector of them."""
    if isinstance(type, VectorType):
        if type.get_num_dims() != 1:
            return False
        type = type.element_type
    return isinstance(type, (IntegerType, AnyFloat))


def splat_constant(value: float, type: Attribute) -> ConstantOp:
    """``llvm.mlir.constant(value)`` of a float scalar or a float 1-D vector type."""
    if isinstance(type, VectorType):
        element = type.element_type
        assert isinstance(element, AnyFloat)
        count = type.get_shape()[0]
        return ConstantOp(DenseIntOrFPElementsAttr.from_list(type, [value] * count), type)
    assert isinstance(type, AnyFloat)
    return ConstantOp(FloatAttr(value, type), type)


def run_conversion(root: Operation, patterns: Sequence[RewritePattern],
                   state: ConversionState) -> None:
    """Apply conversion ``patterns`` (sharing ``state``) in one walk, then drop
    the casts that ended up unneeded. Unlike a greedy rewrite, ops whose
    results are unused stay, as upstream's dialect conversion keeps them."""
    apply_conversion_patterns(root, patterns, apply_recursively=False)
    state.cleanup()


def unroll_nd(
    array_type: Attribute, operands: Sequence[SSAValue], build: OneDBuilder
) -> tuple[list[Operation], SSAValue]:
    """Apply ``build`` to every 1-D vector of n-D values lowered to nested
    arrays (``array_type``, shared by all ``operands``), collecting the
    results into a new array. Returns the ops, in order, and the array."""
    dims: list[int] = []
    inner = array_type
    while isinstance(inner, LLVMArrayType):
        dims.append(inner.size.data)
        inner = inner.type
    poison = PoisonOp(array_type)
    ops: list[Operation] = [poison]
    acc: SSAValue = poison.results[0]
    for position in itertools.product(*(range(d) for d in dims)):
        pieces: list[SSAValue] = []
        for operand in operands:
            extract = ExtractValueOp(operand, list(position))
            ops.append(extract)
            pieces.append(extract.results[0])
        built = build(inner, pieces)
        ops.extend(built)
        insert = InsertValueOp(acc, built[-1].results[0], list(position))
        ops.append(insert)
        acc = insert.results[0]
    return ops, acc
