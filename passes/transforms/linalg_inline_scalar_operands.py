"""``linalg-inline-scalar-operands``: inputs of a ``linalg.generic`` read at one
fixed element are read inside the body instead.

Upstream rewrites a generic with pure tensor semantics whose inputs include
some with a constant indexing map (``(d0) -> ()``, ``(d0) -> (0)``): the new
generic drops those inputs and their maps, and its body starts with a
``tensor.extract`` of each one at the map's constant indices (or, for a scalar
operand, uses the scalar itself) where the block argument was read. The index
constants go where upstream's greedy rewriter folds constants to: the start of
the enclosing function.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Operation
from xdsl.ir.affine import AffineConstantExpr
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.rewriter import InsertPoint

from mlkit.dialects.linalg.structural import GenericOp
from mlkit.dialects.tensor import ExtractOp
from mlkit.passes.transforms.linalg_generic_utils import index_constant, indexing_maps, new_generic
from mlkit.passes.transforms.linalg_generic_utils import pure_tensor
from mlkit.passes.transforms.rewrite_driver import apply_greedily

__all__ = ["InlineScalarOperands", "LinalgInlineScalarOperandsPass"]


class InlineScalarOperands(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, GenericOp) or not pure_tensor(op) or not op.body.blocks:
            return
        maps = indexing_maps(op)
        scalars = [
            i
            for i in range(len(op.inputs))
            if all(isinstance(r, AffineConstantExpr) for r in maps[i].results)
        ]
        if not scalars:
            return
        scalar_values = {i: op.inputs[i] for i in scalars}
        inputs = [v for i, v in enumerate(op.inputs) if i not in scalars]
        kept_maps = [m for i, m in enumerate(maps) if i not in scalars]
        generic = new_generic(
            inputs, op.outputs, kept_maps, op.iterator_types, op.body.clone(), dict(op.attributes)
        )
        rewriter.replace(op, generic)
        block = generic.body.block
        # Upstream creates the extracts one after another from the body's start.
        at = InsertPoint.at_start(block)
        for i in reversed(scalars):
            value = scalar_values[i]
            if isinstance(value.type, TensorType):
                indices = [
                    index_constant(rewriter, generic, r.value)  # type: ignore[union-attr]
                    for r in maps[i].results
                ]
                extract = ExtractOp(value, indices, value.type.element_type)
                rewriter.insert(extract, at)
                at = InsertPoint.after(extract)
                value = extract.result
            arg = block.args[i]
            rewriter.replace_all_uses_with(arg, value)
            rewriter.erase_block_argument(arg)


@dataclass(frozen=True)
class LinalgInlineScalarOperandsPass(ModulePass):
    """Inline scalar operands into linalg generic ops"""

    name = "linalg-inline-scalar-operands"

    def apply(self, ctx: Context, op: Operation) -> None:
        apply_greedily(op, [InlineScalarOperands()], ctx)
