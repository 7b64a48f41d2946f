"""A third-party plugin used by the tests: one dialect and two passes."""

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import I64, IntegerAttr, ModuleOp, i64
from xdsl.ir import Dialect, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import VerifyException

from mlkit.diagnostics.emit import emit_error, emit_remark, emit_warning


@irdl_op_definition
class ConstOp(IRDLOperation):
    name = "toy.const"
    value = prop_def(IntegerAttr[I64])
    res = result_def(i64)
    assembly_format = "$value attr-dict"

    def verify_(self) -> None:
        if self.value.value.data < 0:
            raise VerifyException("value must be non-negative")


@irdl_op_definition
class DoubleOp(IRDLOperation):
    name = "toy.double"
    arg = operand_def(i64)
    res = result_def(i64)
    assembly_format = "$arg attr-dict"


Toy = Dialect("toy", [ConstOp, DoubleOp])


class FoldDouble(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: DoubleOp, rewriter: PatternRewriter) -> None:
        owner = op.arg.owner
        if isinstance(owner, ConstOp):
            value = owner.value.value.data * self.factor
            rewriter.replace_op(op, ConstOp.create(
                properties={"value": IntegerAttr(value, i64)}, result_types=[i64]))

    def __init__(self, factor: int) -> None:
        self.factor = factor


@dataclass(frozen=True)
class ToyFold(ModulePass):
    """Fold toy.double of a constant."""

    name = "toy-fold"
    factor: int = 2

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(FoldDouble(self.factor)).rewrite_module(op)


@dataclass(frozen=True)
class ToyReport(ModulePass):
    """Remark on every toy.const and warn on zeros."""

    name = "toy-report"

    def apply(self, ctx: Context, op: Operation) -> None:
        for inner in op.walk():
            if isinstance(inner, ConstOp):
                emit_remark(ctx, inner, f"constant {inner.value.value.data}")
                if inner.value.value.data == 0:
                    emit_warning(ctx, inner, "zero constant")


@dataclass(frozen=True)
class ToyBreak(ModulePass):
    """Deliberately produce IR that fails verification (for --verify-each tests)."""

    name = "toy-break"

    def apply(self, ctx: Context, op: Operation) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, ConstOp):
                inner.properties["value"] = IntegerAttr(-1, i64)


@dataclass(frozen=True)
class ToyFail(ModulePass):
    """Fail with an error located at the first toy.const."""

    name = "toy-fail"

    def apply(self, ctx: Context, op: Operation) -> None:
        for inner in op.walk():
            if isinstance(inner, ConstOp):
                raise emit_error(ctx, inner, "toy-fail refuses this constant")


@dataclass(frozen=True)
class ToyCrash(ModulePass):
    """A buggy pass: raises a Python exception."""

    name = "toy-crash"

    def apply(self, ctx: Context, op: Operation) -> None:
        raise KeyError("oops")


def register(registry) -> None:
    registry.register_pass(ToyBreak)
    registry.register_pass(ToyFail)
    registry.register_pass(ToyCrash)
    registry.register_dialect(Toy)
    registry.register_pass(ToyFold)
    registry.register_pass(ToyReport)
