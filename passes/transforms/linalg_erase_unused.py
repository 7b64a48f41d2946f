"""The clean-up upstream runs with elementwise fusion: generics lose the
operands and results they do not need (upstream's
``populateEraseUnusedOperandsAndResultsPatterns``), identity generics vanish
(``GenericOp``'s canonicalization) and trivially dead ops go (the greedy
rewriter's dead-code removal, with upstream's effects for linalg ops).

- An input is dropped when the payload does not read it, or when the same
  value with the same map is an input already, as long as the remaining maps
  still determine the loop bounds.
- An init is dropped when its result is unused and the payload only passes its
  element through to the yield (or ignores it); or when another init is the
  same value, map and yielded value.
- An unused result whose element is computed by one op from the init element
  and only yielded (a dead cycle) gets the init element yielded instead, so the
  first rule can drop it.
"""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field

from xdsl.ir import Block, BlockArgument, Operation, Region, SSAValue
from xdsl.ir.affine import AffineMap
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.dialects.linalg.body import YieldOp
from mlkit.dialects.linalg.structural import GenericOp
from mlkit.passes.transforms.linalg_generic_utils import can_drop_operands, indexing_maps
from mlkit.passes.transforms.linalg_generic_utils import is_all_parallel, new_generic, payload_uses
from mlkit.passes.transforms.linalg_generic_utils import pure_tensor
from mlkit.passes.transforms.side_effects import is_trivially_dead

__all__ = [
    "DeduplicateAndRemoveDeadOperandsAndResults",
    "EraseIdentityGeneric",
    "EraseTriviallyDead",
    "RemoveUnusedCycleInGeneric",
]


def _yield(op: GenericOp) -> YieldOp:
    last = op.body.block.last_op
    assert isinstance(last, YieldOp)
    return last


def _result_dead(op: GenericOp, index: int) -> bool:
    """Upstream's ``isResultValueDead`` for result ``index``."""
    if op.res[index].uses:
        return False
    operand_number = len(op.inputs) + index
    if not payload_uses(op, operand_number):
        return True
    arg = op.body.block.args[operand_number]
    uses = list(arg.uses)
    if len(uses) != 1:
        return False
    user = uses[0].operation
    if not isinstance(user, YieldOp) or any(r.uses for r in user.results):
        return False
    return user.operands[index] is arg


@dataclass
class _KeptOperands:
    """The inputs or the inits a rebuilt generic keeps: each old operand's
    position among them, operands with the same key sharing one."""

    pos: dict[int, int] = field(default_factory=dict)
    values: list[SSAValue] = field(default_factory=list)
    maps: list[AffineMap] = field(default_factory=list)
    seen: dict[Hashable, int] = field(default_factory=dict)

    def keep(
        self, index: int, value: SSAValue, map_: AffineMap, key: Hashable | None = None, *,
        reuse: bool = True,
    ) -> bool:
        """Give operand ``index`` a position: a kept one with the same ``key``
        where ``reuse`` allows (returning False), else a new one."""
        if reuse and key is not None and key in self.seen:
            self.pos[index] = self.seen[key]
            return False
        self.pos[index] = len(self.values)
        if key is not None:
            self.seen[key] = self.pos[index]
        self.values.append(value)
        self.maps.append(map_)
        return True


class DeduplicateAndRemoveDeadOperandsAndResults(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp) or not op.body.blocks:
            return
        maps = indexing_maps(op)
        num_inputs = len(op.inputs)
        dropped: set[int] = set()
        inputs, outputs = _KeptOperands(), _KeptOperands()
        for i, value in enumerate(op.inputs):
            if not payload_uses(op, i) and can_drop_operands(op, dropped | {i}):
                dropped.add(i)
                continue
            if not inputs.keep(i, value, maps[i], (value, maps[i])):
                dropped.add(i)

        if not pure_tensor(op):
            for j, value in enumerate(op.outputs):
                outputs.keep(j, value, maps[num_inputs + j])
        else:
            yielded = list(_yield(op).operands)
            for j, value in enumerate(op.outputs):
                n = num_inputs + j
                if _result_dead(op, j) and can_drop_operands(op, dropped | {n}):
                    dropped.add(n)
                    continue
                key = (value, maps[n], yielded[j])
                if not outputs.keep(j, value, maps[n], key, reuse=not payload_uses(op, n)):
                    dropped.add(n)

        if len(inputs.values) + len(outputs.values) == len(op.operands):
            return
        self._rebuild(op, rewriter, inputs.values, outputs.values, inputs.maps + outputs.maps,
                      inputs.pos, outputs.pos)

    @staticmethod
    def _rebuild(
        op: GenericOp,
        rewriter: PatternRewriter,
        inputs: list[SSAValue],
        outputs: list[SSAValue],
        maps: list[AffineMap],
        input_pos: dict[int, int],
        output_pos: dict[int, int],
    ) -> None:
        num_inputs = len(op.inputs)
        old_block = op.body.block
        # operand number in the old op -> operand number in the new one
        new_number = {i: p for i, p in input_pos.items()}
        new_number |= {num_inputs + j: len(inputs) + p for j, p in output_pos.items()}
        arg_types = [None] * (len(inputs) + len(outputs))
        for old, new in sorted(new_number.items(), reverse=True):
            arg_types[new] = old_block.args[old].type
        block = Block(arg_types=arg_types)  # type: ignore[arg-type]
        replacements = [
            block.args[new_number[i]] if i in new_number else arg
            for i, arg in enumerate(old_block.args)
        ]
        old_yield = _yield(op)
        if len(outputs) != len(op.outputs):
            kept: list[SSAValue] = [old_yield.operands[0]] * len(outputs)
            for j, value in enumerate(old_yield.operands):
                if j in output_pos:
                    kept[output_pos[j]] = value
            rewriter.insert(YieldOp(*kept), InsertPoint.before(old_yield))
            rewriter.erase(old_yield)
        generic = new_generic(
            inputs, outputs, maps, op.iterator_types, Region(block), dict(op.attributes)
        )
        for name in ("doc", "library_call"):
            if name in op.properties:
                generic.properties[name] = op.properties[name]
        Rewriter.inline_block(old_block, InsertPoint.at_end(block), replacements)
        if pure_tensor(op):
            results = [
                generic.res[output_pos[j]] if j in output_pos else None
                for j in range(len(op.res))
            ]
        else:
            results = list(generic.res)
        rewriter.replace(op, generic, results)


class RemoveUnusedCycleInGeneric(RewritePattern):
    """An unused result computed by a single op from its own init element, and
    only yielded, yields the init element instead."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp) or not pure_tensor(op) or not op.body.blocks:
            return
        block = op.body.block
        yield_op = _yield(op)
        for j, result in enumerate(op.res):
            if result.uses:
                continue
            arg = block.args[len(op.inputs) + j]
            uses = list(arg.uses)
            if len(uses) != 1:
                continue
            cycle = uses[0].operation
            if len(cycle.results) != 1 or isinstance(cycle, YieldOp):
                continue
            cycle_uses = list(cycle.results[0].uses)
            if len(cycle_uses) != 1 or cycle_uses[0].operation is not yield_op:
                continue
            if yield_op.operands[j] is not cycle.results[0]:
                continue
            rewriter.replace(cycle, [], [arg])
            return


class EraseIdentityGeneric(RewritePattern):
    """An all-parallel generic on tensors with identity maps whose body only
    yields its arguments is the operands it yields."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp) or not op.body.blocks:
            return
        if not is_all_parallel(op) or not pure_tensor(op):
            return
        if any(m != AffineMap.identity(m.num_dims) for m in indexing_maps(op)):
            return
        block = op.body.block
        yield_op = block.first_op
        if not isinstance(yield_op, YieldOp):
            return
        returned: list[SSAValue] = []
        for value, result in zip(yield_op.operands, op.res, strict=True):
            if not isinstance(value, BlockArgument) or value.block is not block:
                return
            operand = op.operands[value.index]
            if operand.type != result.type:
                return  # upstream inserts a tensor.cast here
            returned.append(operand)
        if len(returned) != len(op.res):
            return
        rewriter.replace(op, [], returned)


class EraseTriviallyDead(RewritePattern):
    """Unused ops without effects go, as the greedy rewriter erases them."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if is_trivially_dead(op):
            rewriter.erase(op)
