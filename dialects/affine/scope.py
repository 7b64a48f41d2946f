"""Which SSA values may be affine dimensions or symbols, as upstream decides.

Upstream's verifiers reject ``affine.load %m[%x]`` when ``%x`` is neither a
loop induction variable nor defined in a way that keeps it fixed in the
enclosing *affine scope* (``isValidDim`` / ``isValidSymbol`` in
``AffineOps.cpp``). xDSL has no such check and no ``AffineScope`` trait; this
module adds both. Ops of other dialects that carry upstream's ``AffineScope``
trait are recognised by name so their modules need not import this one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import DYNAMIC_INDEX, IndexType, IntegerAttr, MemRefType
from xdsl.ir import Block, BlockArgument, Operation, OpResult, Region, SSAValue
from xdsl.traits import ConstantLike, IsolatedFromAbove, OpTrait, is_side_effect_free
from xdsl.traits import is_speculatable
from xdsl.utils.exceptions import VerifyException


@dataclass(frozen=True)
class AffineScope(OpTrait):
    """Upstream's ``AffineScope``: the op's regions start a new scope in which
    values defined at the top level are valid affine symbols."""


AFFINE_SCOPE_OPS = frozenset({"builtin.module", "func.func", "gpu.func", "gpu.launch", "llvm.func"})
"""Ops outside this dialect that have upstream's ``AffineScope`` trait."""

_LOOPS = frozenset({"affine.for", "affine.parallel"})
_INDEX_OPS = frozenset({"affine.apply", "affine.delinearize_index", "affine.linearize_index"})
_DIM_OPS = frozenset({"memref.dim", "tensor.dim"})


def is_affine_scope(op: Operation) -> bool:
    return op.name in AFFINE_SCOPE_OPS or op.has_trait(AffineScope)


# the scope ops above that upstream marks IsolatedFromAbove (gpu.launch is not)
_ISOLATED_SCOPE_OPS = AFFINE_SCOPE_OPS - {"gpu.launch"}


def _is_isolated(op: Operation) -> bool:
    return op.has_trait(IsolatedFromAbove) or op.name in _ISOLATED_SCOPE_OPS


def _defining_op(value: SSAValue) -> Operation | None:
    return value.owner if isinstance(value, OpResult) else None


def _arg_parent_op(value: SSAValue) -> Operation | None:
    assert isinstance(value, BlockArgument)
    block: Block = value.block
    return block.parent_op()


def _value_region(value: SSAValue) -> Region | None:
    if isinstance(value, BlockArgument):
        return value.block.parent
    op = _defining_op(value)
    return None if op is None or op.parent is None else op.parent.parent


def _is_index(value: SSAValue) -> bool:
    return isinstance(value.type, IndexType)


def get_affine_scope(op: Operation) -> Region | None:
    """The region of the closest enclosing op with ``AffineScope``."""
    cur = op
    while (parent := cur.parent_op()) is not None:
        if is_affine_scope(parent):
            return cur.parent_region()
        cur = parent
    return None


def is_top_level_value(value: SSAValue) -> bool:
    """Defined (or a block argument) directly in an ``AffineScope`` op's region."""
    if isinstance(value, BlockArgument):
        parent = _arg_parent_op(value)
    else:
        owner = _defining_op(value)
        parent = None if owner is None else owner.parent_op()
    return parent is not None and is_affine_scope(parent)


def is_affine_induction_var(value: SSAValue) -> bool:
    if not isinstance(value, BlockArgument):
        return False
    parent = _arg_parent_op(value)
    if parent is None or parent.name not in _LOOPS:
        return False
    # affine.for: only the first block argument; the others are iter_args.
    return parent.name == "affine.parallel" or value.index == 0


def _constant_int(value: SSAValue) -> int | None:
    op = _defining_op(value)
    if op is None or not op.has_trait(ConstantLike):
        return None
    attr = op.properties.get("value", op.attributes.get("value"))
    return attr.value.data if isinstance(attr, IntegerAttr) else None


def _is_pure(op: Operation) -> bool:
    return is_speculatable(op) and is_side_effect_free(op)


def _memref_size_is_valid_symbol(alloc: Operation, index: int, region: Region | None) -> bool:
    mtype = alloc.results[0].type if alloc.results else None
    if not isinstance(mtype, MemRefType) or index >= len(mtype.shape):
        return False
    shape = mtype.get_shape()
    if shape[index] != DYNAMIC_INDEX:
        return True
    dyn_pos = sum(1 for d in shape[:index] if d == DYNAMIC_INDEX)
    if alloc.name == "memref.alloc":
        sizes: Sequence[SSAValue] = alloc.operands
    else:
        sizes = getattr(alloc, "sizes", ())
    return dyn_pos < len(sizes) and is_valid_symbol(sizes[dyn_pos], region)


def _dim_op_is_valid_symbol(dim: Operation, region: Region | None) -> bool:
    source = dim.operands[0]
    if is_top_level_value(source):
        return True
    if isinstance(source, BlockArgument):
        return False
    index = _constant_int(dim.operands[1])
    if index is None:
        return False
    op = _defining_op(source)
    while op is not None and op.name == "memref.cast":
        if not isinstance(op.operands[0].type, MemRefType):
            return False
        op = _defining_op(op.operands[0])
    if op is None or op.name not in ("memref.view", "memref.subview", "memref.alloc"):
        return False
    return _memref_size_is_valid_symbol(op, index, region)


def _dominates_region_parent(value: SSAValue, region: Region | None) -> bool:
    region_op = None if region is None else region.parent
    if region_op is None or _is_isolated(region_op):
        return False
    parent_region = region_op.parent_region()
    return parent_region is not None and is_valid_symbol(value, parent_region)


def is_valid_symbol(value: SSAValue, region: Region | None) -> bool:
    """Upstream's ``isValidSymbol(value, region)``."""
    if not _is_index(value):
        return False
    if region is not None and _value_region(value) is region:
        return True
    op = _defining_op(value)
    if op is None:
        return _dominates_region_parent(value, region)
    if op.has_trait(ConstantLike):
        return True
    if _is_pure(op) and all(is_valid_symbol(v, region) for v in op.operands):
        return True
    if op.name in _DIM_OPS:
        return _dim_op_is_valid_symbol(op, region)
    return _dominates_region_parent(value, region)


def is_valid_dim(value: SSAValue, region: Region | None) -> bool:
    """Upstream's ``isValidDim(value, region)``."""
    if not _is_index(value):
        return False
    if is_valid_symbol(value, region):
        return True
    op = _defining_op(value)
    if op is None:
        return is_affine_induction_var(value)
    if op.name in _INDEX_OPS:
        return all(is_valid_dim(v, region) for v in op.operands)
    if op.name in _DIM_OPS:
        return is_top_level_value(op.operands[0])
    return False


def verify_dims_and_symbols(op: Operation, operands: Sequence[SSAValue], num_dims: int) -> None:
    """Upstream's ``verifyDimAndSymbolIdentifiers``: the first ``num_dims``
    operands must be valid dimensions, the rest valid symbols."""
    region = get_affine_scope(op)
    for i, operand in enumerate(operands):
        if i < num_dims:
            if not is_valid_dim(operand, region):
                raise VerifyException("operand cannot be used as a dimension id")
        elif not is_valid_symbol(operand, region):
            raise VerifyException("operand cannot be used as a symbol")
