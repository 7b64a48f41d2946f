"""Upstream's answers to "may this op be erased, or executed speculatively?".

Upstream MLIR asks an op's ``MemoryEffectOpInterface`` (and the
``RecursiveMemoryEffects`` trait) whether erasing an unused op is safe, and its
``ConditionallySpeculatable`` interface whether it may run where it did not
(loop-invariant code motion). xDSL's traits answer most ops the same way; these
are the ones mlkit runs where they do not, so the passes that erase or hoist ops
ask here first:

- linalg's structured ops carry no effect or speculation trait: upstream, one on
  tensors only has the effects of its body and is speculatable when its body
  is; one on memrefs reads and writes them. ``linalg.yield`` and ``linalg.index``
  are pure.
- ``arith.divui``/``ceildivui``/``remui``/``remsi`` are speculatable only with a
  non-zero constant divisor, ``divsi``/``ceildivsi`` also not -1 (xDSL has
  ``ceildivsi`` and ``remsi`` pure, ``remui`` without effects declared).
- ``tensor.dim``/``memref.dim`` are speculatable with a constant index within a
  ranked source's rank; ``tensor.empty`` is pure.
- ``scf.for`` and ``affine.for`` are speculatable (when their bodies are) with a
  step of 1, which always terminates.

The dialects' ops should carry these traits themselves; until they do, this
table keeps the passes upstream's.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from xdsl.dialects.builtin import IntegerAttr, IntegerType, MemRefType, TensorType
from xdsl.ir import Operation, OpResult, SSAValue
from xdsl.traits import ConditionallySpeculatable, ConstantLike, IsTerminator, MemoryEffect
from xdsl.traits import RecursiveMemoryEffect, RecursivelySpeculatable, SymbolOpInterface

from mlkit.dialects.linalg.map_ops import DestinationStyleOp
from mlkit.dialects.linalg.named_base import NamedStructuredOp
from mlkit.dialects.linalg.structural import GenericOp

__all__ = [
    "constant_int",
    "has_pure_tensor_semantics",
    "is_memory_effect_free",
    "is_speculatable",
    "is_structured",
    "is_trivially_dead",
    "would_be_trivially_dead",
]


def is_structured(op: Operation) -> bool:
    """A linalg structured op with a body: generic, a named op, map, reduce..."""
    return isinstance(op, GenericOp | NamedStructuredOp | DestinationStyleOp)


def has_pure_tensor_semantics(op: Operation) -> bool:
    """No operand is a memref (upstream's ``hasPureTensorSemantics``)."""
    return not any(isinstance(v.type, MemRefType) for v in op.operands)


def constant_int(value: SSAValue) -> int | None:
    """The integer a constant-like op defines ``value`` as, if it does."""
    if not isinstance(value, OpResult) or not value.op.has_trait(ConstantLike):
        return None
    attr = value.op.properties.get("value", value.op.attributes.get("value"))
    if isinstance(attr, IntegerAttr):
        return attr.value.data
    return None


def _nested_ops(op: Operation) -> Iterator[Operation]:
    for region in op.regions:
        for block in region.blocks:
            yield from block.ops


# -- memory effects -------------------------------------------------------------


def is_memory_effect_free(op: Operation) -> bool:
    """Upstream's ``isMemoryEffectFree``: the op declares no effects, and where it
    has the effects of what it holds, nor do those ops."""
    if op.name in ("linalg.yield", "linalg.index", "tensor.empty", "arith.remui"):
        return True
    if is_structured(op):
        return has_pure_tensor_semantics(op) and all(
            is_memory_effect_free(o) for o in _nested_ops(op)
        )
    traits = op.get_traits_of_type(MemoryEffect)
    if not traits:
        return False
    recursive = False
    for trait in traits:
        if isinstance(trait, RecursiveMemoryEffect):
            recursive = True
            continue
        effects = trait.get_effects(op)
        if effects is None or effects:
            return False
    return not recursive or all(is_memory_effect_free(o) for o in _nested_ops(op))


def would_be_trivially_dead(op: Operation) -> bool:
    """Erasing the op would lose nothing once its results are unused."""
    return (
        not op.has_trait(IsTerminator, value_if_unregistered=False)
        and not op.has_trait(SymbolOpInterface, value_if_unregistered=False)
        and is_memory_effect_free(op)
    )


def is_trivially_dead(op: Operation) -> bool:
    return all(not r.uses for r in op.results) and would_be_trivially_dead(op)


# -- speculatability ------------------------------------------------------------


def _divisor_nonzero(op: Operation) -> bool:
    divisor = constant_int(op.operands[1])
    return divisor is not None and divisor != 0


def _divisor_nonzero_not_minus_one(op: Operation) -> bool:
    divisor = constant_int(op.operands[1])
    if divisor is None or divisor == 0 or divisor == -1:
        return False
    type_ = op.operands[1].type
    width = type_.width.data if isinstance(type_, IntegerType) else 64
    return divisor != (1 << width) - 1  # -1 spelled unsigned


def _dim_in_bounds(op: Operation) -> bool:
    source, index = op.operands
    if not isinstance(source.type, TensorType | MemRefType):
        return False  # unranked: any index may be out of bounds
    rank = len(source.type.get_shape())
    position = constant_int(index)
    return position is not None and 0 <= position < rank


def _body_speculatable(op: Operation) -> bool:
    return all(is_speculatable(o) for o in _nested_ops(op))


def _unit_step_loop(op: Operation) -> bool:
    if op.name == "scf.for":
        step = constant_int(op.step)  # type: ignore[attr-defined]
    else:
        step = op.step.value.data  # type: ignore[attr-defined]
    return step == 1 and _body_speculatable(op)


_SPECULATABLE: dict[str, Callable[[Operation], bool]] = {
    "arith.divui": _divisor_nonzero,
    "arith.ceildivui": _divisor_nonzero,
    "arith.remui": _divisor_nonzero,
    "arith.remsi": _divisor_nonzero,
    "arith.divsi": _divisor_nonzero_not_minus_one,
    "arith.ceildivsi": _divisor_nonzero_not_minus_one,
    "tensor.dim": _dim_in_bounds,
    "memref.dim": _dim_in_bounds,
    "tensor.empty": lambda op: True,
    "linalg.yield": lambda op: True,
    "linalg.index": lambda op: True,
    "scf.for": _unit_step_loop,
    "affine.for": _unit_step_loop,
}


def is_speculatable(op: Operation) -> bool:
    """Upstream's ``isSpeculatable``: executing the op where it was not reached
    has no undefined behaviour (recursively so for the ops it holds, where it
    says so)."""
    rule = _SPECULATABLE.get(op.name)
    if rule is not None:
        return rule(op)
    if is_structured(op):
        return has_pure_tensor_semantics(op) and _body_speculatable(op)
    trait = op.get_trait(ConditionallySpeculatable)
    if trait is None:
        return False
    if isinstance(trait, RecursivelySpeculatable):
        return _body_speculatable(op)
    return trait.is_speculatable(op)
