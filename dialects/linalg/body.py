"""Bodies of linalg's structured ops: their terminator ``linalg.yield`` and the
scalar bodies of the named ops, built as upstream's ``RegionBuilderHelper``.

A named op's region is implicit in its custom syntax but printed in its generic
form, and it is what generalization turns into a ``linalg.generic`` body, so it
must hold exactly the ops upstream builds: the same casts (upstream's
``convertScalarToDtype``), the same arith/math op per function and element type,
and the same operand order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects import arith, math
from xdsl.dialects.builtin import AnyFloat, FloatAttr, IndexType, IntegerType, MemRefType
from xdsl.dialects.builtin import TensorType
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.attrs import BinaryFn, TernaryFn, TypeFn, UnaryFn

__all__ = [
    "BodyBuilder",
    "BodyError",
    "RegionBuilderFn",
    "YieldOp",
    "build_region",
    "element_type",
    "structured_op_parent",
]


class BodyError(ValueError):
    """A body cannot be built for these element types (upstream asserts)."""


def element_type(t: Attribute) -> Attribute:
    """The scalar a block argument of a structured op stands for."""
    return t.get_element_type() if isinstance(t, MemRefType | TensorType) else t


def _width(t: Attribute) -> int:
    if isinstance(t, IntegerType):
        return t.width.data
    assert isinstance(t, AnyFloat)
    return t.bitwidth


def structured_op_parent(op: Operation) -> Operation | None:
    """The enclosing op with the structured-op interface, if ``op``'s parent is one."""
    parent = op.parent_op()
    return (
        parent if parent is not None and hasattr(parent, "get_indexing_maps") else None
    )


def _inits_of(op: Operation) -> list[SSAValue]:
    return list(op.outputs if hasattr(op, "outputs") else op.inits)  # type: ignore[attr-defined]


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Ends a linalg body, yielding one value per init."""

    name = "linalg.yield"

    values = var_operand_def()
    traits = traits_def(IsTerminator())

    def __init__(self, *values: SSAValue | Operation) -> None:
        super().__init__(operands=[values])

    @classmethod
    def parse(cls, parser: Parser) -> YieldOp:
        pos = parser.pos
        names = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand,
                parser.parse_unresolved_operand,
            )
            or []
        )
        attrs = parser.parse_optional_attr_dict()
        values: list[SSAValue] = []
        if names:
            parser.parse_punctuation(":")
            types = parser.parse_comma_separated_list(
                Parser.Delimiter.NONE, parser.parse_type
            )
            values = parser.resolve_operands(names, types, pos)
        op = cls(*values)
        op.attributes.update(attrs)
        return op

    def print(self, printer: Printer) -> None:
        if self.values:
            printer.print_string(" ")
            printer.print_list(self.values, printer.print_operand)
        printer.print_op_attributes(self.attributes)
        if self.values:
            printer.print_string(" : ")
            printer.print_list(self.values.types, printer.print_attribute)

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or len(parent.regions) != 1 or not parent.regions[0].blocks:
            raise VerifyException("expected single non-empty parent region")
        if structured_op_parent(self) is None:
            raise VerifyException("expected parent op with LinalgOp interface")
        inits = _inits_of(parent)
        if len(self.values) != len(inits):
            raise VerifyException(
                f"expected number of yield values ({len(self.values)}) to match the number "
                f"of inits / outs operands of the enclosing LinalgOp ({len(inits)})"
            )
        for index, (value, init) in enumerate(zip(self.values, inits), start=1):
            expected = element_type(init.type)
            if value.type != expected:
                raise VerifyException(
                    f"type of yield operand {index} ('{value.type}') doesn't match the element "
                    f"type of the enclosing linalg.generic op ('{expected}')"
                )


class BodyBuilder:
    """Appends scalar ops to a block, one helper per OpDSL function."""

    def __init__(self, block: Block) -> None:
        self.block = block

    @property
    def args(self) -> tuple[SSAValue, ...]:
        return self.block.args

    def _add(self, op: Operation) -> SSAValue:
        self.block.add_op(op)
        return op.results[0]

    # -- type functions -------------------------------------------------------
    def cast(
        self, to_type: Attribute, value: SSAValue, fn: TypeFn = TypeFn.CAST_SIGNED
    ) -> SSAValue:
        """Convert ``value`` to ``to_type`` as upstream's ``convertScalarToDtype``."""
        unsigned = fn == TypeFn.CAST_UNSIGNED
        src = value.type
        if src == to_type:
            return value
        if isinstance(to_type, IntegerType):
            if isinstance(src, AnyFloat):
                cls = arith.FPToUIOp if unsigned else arith.FPToSIOp
                return self._add(cls(value, to_type))
            if isinstance(src, IndexType):
                return self._add(arith.IndexCastOp(value, to_type))
            if isinstance(src, IntegerType):
                extend = arith.ExtUIOp if unsigned else arith.ExtSIOp
                return self._resize(value, to_type, extend, arith.TruncIOp)
        elif isinstance(to_type, AnyFloat):
            if isinstance(src, IntegerType):
                cls = arith.UIToFPOp if unsigned else arith.SIToFPOp
                return self._add(cls(value, to_type))
            if isinstance(src, AnyFloat):
                return self._resize(value, to_type, arith.ExtFOp, arith.TruncFOp)
        # Upstream warns and leaves the value as it is; the op then fails to verify.
        return value

    def _resize(
        self,
        value: SSAValue,
        to_type: Attribute,
        extend: Callable[[SSAValue, Attribute], Operation],
        truncate: Callable[[SSAValue, Attribute], Operation],
    ) -> SSAValue:
        """``value`` extended or truncated to the width of ``to_type``, or as it is."""
        if _width(to_type) > _width(value.type):
            return self._add(extend(value, to_type))
        if _width(to_type) < _width(value.type):
            return self._add(truncate(value, to_type))
        return value

    # -- arithmetic functions ---------------------------------------------------
    def unary(self, fn: UnaryFn, x: SSAValue) -> SSAValue:
        if not isinstance(x.type, AnyFloat):
            raise BodyError("unsupported non numeric type")
        simple: dict[UnaryFn, Callable[[SSAValue], Operation]] = {
            UnaryFn.EXP: math.ExpOp,
            UnaryFn.LOG: math.LogOp,
            UnaryFn.ABS: math.AbsFOp,
            UnaryFn.CEIL: math.CeilOp,
            UnaryFn.FLOOR: math.FloorOp,
            UnaryFn.NEGF: arith.NegfOp,
            UnaryFn.ROUND: math.RoundOp,
            UnaryFn.SQRT: math.SqrtOp,
            UnaryFn.RSQRT: math.RsqrtOp,
            UnaryFn.TANH: math.TanhOp,
            UnaryFn.ERF: math.ErfOp,
        }
        if fn in simple:
            return self._add(simple[fn](x))
        if fn == UnaryFn.SQUARE:
            return self._add(arith.MulfOp(x, x))
        assert fn == UnaryFn.RECIPROCAL
        one = self._add(arith.ConstantOp(FloatAttr(1.0, x.type)))
        return self._add(arith.DivfOp(one, x))

    def binary(self, fn: BinaryFn, a: SSAValue, b: SSAValue) -> SSAValue:
        floats = isinstance(a.type, AnyFloat) and isinstance(b.type, AnyFloat)
        ints = isinstance(a.type, IntegerType) and isinstance(b.type, IntegerType)
        bools = ints and _width(a.type) == 1 and _width(b.type) == 1
        if not floats and not ints:
            raise BodyError("unsupported non numeric type")
        table: dict[
            BinaryFn,
            tuple[
                type[Operation] | None, type[Operation] | None, type[Operation] | None
            ],
        ] = {
            # fn: (float op, integer op, i1 op)
            BinaryFn.ADD: (arith.AddfOp, arith.AddiOp, arith.OrIOp),
            BinaryFn.SUB: (arith.SubfOp, arith.SubiOp, None),
            BinaryFn.MUL: (arith.MulfOp, arith.MuliOp, arith.AndIOp),
            BinaryFn.DIV: (arith.DivfOp, arith.DivSIOp, None),
            BinaryFn.DIV_UNSIGNED: (None, arith.DivUIOp, None),
            BinaryFn.MAX_SIGNED: (arith.MaximumfOp, arith.MaxSIOp, arith.MaxSIOp),
            BinaryFn.MIN_SIGNED: (arith.MinimumfOp, arith.MinSIOp, arith.MinSIOp),
            BinaryFn.MAX_UNSIGNED: (arith.MaximumfOp, arith.MaxUIOp, arith.MaxUIOp),
            BinaryFn.MIN_UNSIGNED: (arith.MinimumfOp, arith.MinUIOp, arith.MinUIOp),
            BinaryFn.POWF: (math.PowFOp, None, None),
        }
        float_op, int_op, bool_op = table[fn]
        cls = float_op if floats else bool_op if bools else int_op
        if cls is None:
            raise BodyError(
                f"unsupported operation: {fn.value} on {a.type} and {b.type}"
            )
        return self._add(cls(a, b))

    def ternary(self, fn: TernaryFn, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
        assert fn == TernaryFn.SELECT
        return self._add(arith.SelectOp(a, b, c))

    def yield_(self, *values: SSAValue) -> None:
        self.block.add_op(YieldOp(*values))


RegionBuilderFn = Callable[[BodyBuilder], None]


def build_region(operand_types: Sequence[Attribute], body: RegionBuilderFn) -> Region:
    """A one-block region with one argument per operand element, filled by ``body``."""
    block = Block(arg_types=[element_type(t) for t in operand_types])
    body(BodyBuilder(block))
    return Region(block)
