"""``generate-runtime-verification``: runtime checks of memref accesses and
casts, as ``cf.assert`` ops (upstream's pass, with the checks of
``MemRefRuntimeVerification.cpp``).

- ``memref.load``/``memref.store``: each index in ``[0, dim)``
  (``out-of-bounds access``);
- ``memref.dim``: the index in ``[0, rank)`` (``index is out of bounds``);
- ``memref.cast`` to a type with static sizes: each such size equals the
  source's (``size mismatch of dim N``).

The message is upstream's: ``ERROR: Runtime op verification failed``, the op
(without regions), ``^ <what>`` and ``Location: loc("file":line:col)``. After
``convert-cf-to-llvm`` a failed check prints it and aborts, as upstream's
does; ``mlkit-run -runtime-checks`` and ``mlkit.compile(...,
runtime_checks=True)`` turn the abort into exit 1 or a Python exception.

The checks of upstream's other verifiable ops (subviews, reinterpret and
expand casts, linalg and tensor ops) are not generated here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith as xarith
from xdsl.dialects import cf
from xdsl.dialects import memref as memref_dialect
from xdsl.dialects.builtin import IndexType, IntegerAttr, MemRefType, ModuleOp, i1
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.diagnostics.locations import source_loc

_CHECKED = ("memref.load", "memref.store", "memref.dim", "memref.cast")


def error_message(op: Operation, what: str) -> str:
    """Upstream's ``generateErrorMessage``: the op, what failed, where."""
    from mlkit.syntax.printer import print_op

    text = print_op(op).split("\n", 1)[0].rstrip(" {")
    loc = source_loc(op.location)
    where = f'loc("{loc.file}":{loc.line}:{loc.col})' if loc.known else "loc(unknown)"
    return f"ERROR: Runtime op verification failed\n{text}\n^ {what}\nLocation: {where}"


@dataclass
class _Checks:
    """Builds one op's checks ahead of it."""

    op: Operation
    ops: list[Operation]

    def index(self, value: int) -> SSAValue:
        constant = xarith.ConstantOp(IntegerAttr(value, IndexType()))
        self.ops.append(constant)
        return constant.result

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def within(self, value: SSAValue, low: SSAValue, high: SSAValue) -> SSAValue:
        """``low <= value < high``, signed, as upstream's ``generateInBoundsCheck``."""
        above = self.add(xarith.CmpiOp(value, low, "sge"))
        below = self.add(xarith.CmpiOp(value, high, "slt"))
        return self.add(xarith.AndIOp(above, below))

    def assert_(self, condition: SSAValue, what: str) -> None:
        self.ops.append(cf.AssertOp(condition, error_message(self.op, what)))

    def all_of(self, conditions: Sequence[SSAValue]) -> SSAValue:
        result = self.add(xarith.ConstantOp(IntegerAttr(1, i1)))
        for condition in conditions:
            result = self.add(xarith.AndIOp(result, condition))
        return result


def _dim(checks: _Checks, memref: SSAValue, d: int) -> SSAValue:
    return checks.add(memref_dialect.DimOp(memref, checks.index(d)))


def _access(checks: _Checks, memref: SSAValue, indices: Sequence[SSAValue]) -> None:
    if not indices:
        return
    zero = checks.index(0)
    bounds = [checks.within(i, zero, _dim(checks, memref, d)) for d, i in enumerate(indices)]
    checks.assert_(checks.all_of(bounds), "out-of-bounds access")


def _checks_of(op: Operation) -> list[Operation]:
    checks = _Checks(op, [])
    operands = list(op.operands)
    if op.name == "memref.load":
        _access(checks, operands[0], operands[1:])
    elif op.name == "memref.store":
        _access(checks, operands[1], operands[2:])
    elif op.name == "memref.dim":
        source, index = operands
        if isinstance(source.type, MemRefType):
            rank = checks.index(source.type.get_num_dims())
            checks.assert_(checks.within(index, checks.index(0), rank), "index is out of bounds")
    elif op.name == "memref.cast":
        source, target = operands[0].type, op.results[0].type
        if isinstance(source, MemRefType) and isinstance(target, MemRefType):
            for d, size in enumerate(target.get_shape()):
                if size < 0 or source.get_shape()[d] == size:
                    continue
                actual = _dim(checks, operands[0], d)
                equal = checks.add(xarith.CmpiOp(actual, checks.index(size), "eq"))
                checks.assert_(equal, f"size mismatch of dim {d}")
    return checks.ops


@dataclass(frozen=True)
class GenerateRuntimeVerification(ModulePass):
    """Generate additional runtime op verification checks"""

    name = "generate-runtime-verification"
    display_name: ClassVar[str] = "GenerateRuntimeVerificationPass"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for target in [o for o in op.walk() if o.name in _CHECKED]:
            new = _checks_of(target)
            for inserted in new:
                inserted.location = target.location
            if new:
                Rewriter.insert_op(new, InsertPoint.before(target))
