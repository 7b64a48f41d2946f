"""affine.apply, min, max, load, store, vector_load, vector_store and yield
with upstream's syntax and verifiers.

The ops subclass xDSL's where xDSL has one, so code matching on xDSL's classes
keeps working, and replace their syntax and verifiers: xDSL reads every SSA id
of ``%m[%i + 3]`` as a symbol and has no ``symbol(...)``, prints fully
parenthesised maps, checks types with its own wording and has neither
``affine.max``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects import affine as xaffine
from xdsl.dialects.builtin import AffineMapAttr, IndexType, MemRefType, VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, prop_def, result_def
from xdsl.irdl import traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsTerminator, MemoryReadEffect, MemoryWriteEffect, Pure
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.affine.scope import get_affine_scope, is_valid_dim, is_valid_symbol
from mlkit.dialects.affine.scope import verify_dims_and_symbols
from mlkit.dialects.affine.syntax import parse_dim_and_symbol_list, parse_map_attr
from mlkit.dialects.affine.syntax import parse_map_of_ssa_ids, parse_type_of
from mlkit.dialects.affine.syntax import print_dim_and_symbol_list, print_map_attr
from mlkit.dialects.affine.syntax import print_map_of_ssa_ids
from mlkit.dialects.utils.operand_lists import parse_leading_operand, print_leading_operand


def check_index_types(values: Sequence[SSAValue], first: int, what: str, variadic: bool) -> None:
    """ODS's type check of ``Index`` / ``Variadic<Index>``, in upstream's words."""
    kind = "variadic of index" if variadic else "index"
    for i, value in enumerate(values):
        if not isinstance(value.type, IndexType):
            raise VerifyException(f"{what} #{first + i} must be {kind}, but got '{value.type}'")


# ---------------------------------------------------------------------------
# affine.apply, affine.min, affine.max
# ---------------------------------------------------------------------------


def _parse_map_and_operands(parser: Parser) -> tuple[AffineMapAttr, list[SSAValue], int, dict[str, Attribute]]:
    amap = parse_map_attr(parser)
    operands, num_dims = parse_dim_and_symbol_list(parser)
    return amap, operands, num_dims, parser.parse_optional_attr_dict()


class _MapOfOperands(IRDLOperation):
    """An op whose ``map`` takes its operands as dims and symbols, written
    ``#map (dims)[symbols] {attrs}``; operand types are checked in ``verify_``
    for upstream's wording."""

    map = prop_def(AffineMapAttr)
    result = result_def()
    traits = traits_def(Pure())

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_map_attr(printer, self.map)
        print_dim_and_symbol_list(printer, self.operands, self.map.data.num_dims)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        check_index_types(self.operands, 0, "operand", True)
        check_index_types(self.results, 0, "result", False)
        if len(self.operands) != self.map.data.num_dims + self.map.data.num_symbols:
            raise VerifyException(
                "operand count and affine map dimension and symbol count must match"
            )


@irdl_op_definition
class ApplyOp(_MapOfOperands, xaffine.ApplyOp):
    """``affine.apply``: the single result of the map."""

    name = "affine.apply"
    mapOperands = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> ApplyOp:
        start = parser.pos
        amap, operands, num_dims, attrs = _parse_map_and_operands(parser)
        m = amap.data
        if m.num_dims != num_dims or num_dims + m.num_symbols != len(operands):
            parser.raise_error("dimension or symbol index mismatch", start)
        op = cls(operands, amap)
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        super().verify_()
        m = self.map.data
        if len(m.results) != 1:
            raise VerifyException("mapping must produce one value")
        region = get_affine_scope(self)
        for operand in self.operands[m.num_dims :]:
            if is_valid_dim(operand, region) and not is_valid_symbol(operand, region):
                raise VerifyException("dimensional operand cannot be used as a symbol")


class _MinMax(_MapOfOperands):
    """Shared fields and syntax of affine.min and affine.max (upstream's
    AffineMinMaxOpBase)."""

    arguments = var_operand_def()

    @classmethod
    def parse(cls, parser: Parser) -> _MinMax:
        amap, operands, _, attrs = _parse_map_and_operands(parser)
        op = cls.create(operands=operands, result_types=[IndexType()], properties={"map": amap})
        op.attributes |= attrs
        return op

    def verify_(self) -> None:
        super().verify_()
        if not self.map.data.results:
            raise VerifyException("affine map expect at least one result")


@irdl_op_definition
class MinOp(_MinMax, xaffine.MinOp):
    """``affine.min``: the minimum of the map's results."""

    name = "affine.min"


@irdl_op_definition
class MaxOp(_MinMax):
    """``affine.max``: the maximum of the map's results (missing from xDSL)."""

    name = "affine.max"


# ---------------------------------------------------------------------------
# Memory accesses
# ---------------------------------------------------------------------------


def _verify_indexing(op: Operation, amap: AffineMapAttr, indices: Sequence[SSAValue], memref: SSAValue) -> None:
    """Upstream's ``verifyMemoryOpIndexing``."""
    mtype = memref.type
    assert isinstance(mtype, MemRefType)
    m = amap.data
    if len(m.results) != mtype.get_num_dims():
        raise VerifyException("affine map num results must equal memref rank")
    if m.num_dims + m.num_symbols != len(indices):
        raise VerifyException("expects as many subscripts as affine map inputs")
    for index in indices:
        if not isinstance(index.type, IndexType):
            raise VerifyException("index to load must have 'index' type")
    verify_dims_and_symbols(op, indices, m.num_dims)


def _verify_vector_access(op: Operation, memref: SSAValue, vector: Attribute) -> None:
    mtype = memref.type
    assert isinstance(mtype, MemRefType) and isinstance(vector, VectorType)
    if mtype.element_type != vector.element_type:
        raise VerifyException("requires memref and vector types of the same elemental type")


class _Access(IRDLOperation):
    """The memref, indices and map of the affine memory accesses, after the
    stored value, and upstream's syntax and verifier for them:
    ``[%value,] %memref[%i + 3, symbol(%n)] {attrs} : memref<...>[, vector<...>]``."""

    STORES: ClassVar[bool] = False  # the stored value is the first operand
    VECTOR: ClassVar[bool] = False  # the vector type follows the memref type
    MISMATCH: ClassVar[str]  # a scalar access's error for a value not of the element type

    memref = operand_def(MemRefType)
    indices = var_operand_def(IndexType)  # the operands of the map
    map = prop_def(AffineMapAttr)

    def _accessed(self) -> SSAValue:
        """The value loaded or stored."""
        return self.operands[0] if self.STORES else self.results[0]

    def verify_(self) -> None:
        mtype = self.memref.type
        assert isinstance(mtype, MemRefType)
        if not self.VECTOR and self._accessed().type != mtype.element_type:
            raise VerifyException(self.MISMATCH)
        _verify_indexing(self, self.map, self.indices, self.memref)
        if self.VECTOR:
            _verify_vector_access(self, self.memref, self._accessed().type)

    @classmethod
    def parse(cls, parser: Parser) -> _Access:
        value = parse_leading_operand(parser, cls.STORES)
        memref = parser.parse_unresolved_operand()
        parsed = parse_map_of_ssa_ids(parser, Parser.Delimiter.SQUARE)
        attrs = parser.parse_optional_attr_dict()
        parser.parse_punctuation(":")
        mtype = parse_type_of(parser, MemRefType)
        element: Attribute = mtype.element_type
        if cls.VECTOR:
            parser.parse_punctuation(",")
            element = parse_type_of(parser, VectorType)
        operands = [] if value is None else [parser.resolve_operand(value, element)]
        operands.append(parser.resolve_operand(memref, mtype))
        operands.extend(parser.resolve_operand(i, IndexType()) for i in parsed.operands)
        return cls.create(
            operands=operands,
            result_types=[] if cls.STORES else [element],
            properties={"map": AffineMapAttr(parsed.map)},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        print_leading_operand(printer, self.operands[0] if self.STORES else None)
        printer.print_ssa_value(self.memref)
        printer.print_string("[")
        print_map_of_ssa_ids(printer, self.map.data, self.indices)
        printer.print_string("]")
        printer.print_op_attributes(self.attributes)
        printer.print_string(" : ")
        printer.print_attribute(self.memref.type)
        if self.VECTOR:
            printer.print_string(", ")
            printer.print_attribute(self._accessed().type)


@irdl_op_definition
class LoadOp(_Access, xaffine.LoadOp):
    """``affine.load %m[%i + 3, symbol(%n)] : memref<...>``."""

    name = "affine.load"
    result = result_def()
    traits = traits_def(MemoryReadEffect())
    MISMATCH: ClassVar[str] = "result type must match element type of memref"


@irdl_op_definition
class StoreOp(_Access, xaffine.StoreOp):
    """``affine.store %v, %m[%i + 3, symbol(%n)] : memref<...>``."""

    name = "affine.store"
    value = operand_def()
    traits = traits_def(MemoryWriteEffect())
    STORES: ClassVar[bool] = True
    MISMATCH: ClassVar[str] = "value to store must have the same type as memref element type"


@irdl_op_definition
class VectorLoadOp(_Access, xaffine.VectorLoadOp):
    """``affine.vector_load %m[...] : memref<...>, vector<...>``."""

    name = "affine.vector_load"
    result = result_def(VectorType)
    traits = traits_def(MemoryReadEffect())
    VECTOR: ClassVar[bool] = True


@irdl_op_definition
class VectorStoreOp(_Access, xaffine.VectorStoreOp):
    """``affine.vector_store %v, %m[...] : memref<...>, vector<...>``."""

    name = "affine.vector_store"
    value = operand_def(VectorType)
    traits = traits_def(MemoryWriteEffect())
    STORES: ClassVar[bool] = True
    VECTOR: ClassVar[bool] = True


# ---------------------------------------------------------------------------
# affine.yield
# ---------------------------------------------------------------------------


@irdl_op_definition
class YieldOp(IRDLOperation):
    """``affine.yield``; replaces xDSL's, which does not check the values
    against its parent's results."""

    name = "affine.yield"
    arguments = var_operand_def()
    traits = traits_def(IsTerminator(), Pure())
    assembly_format = "attr-dict ($arguments^ `:` type($arguments))?"

    @staticmethod
    def get(*operands: SSAValue | Operation) -> YieldOp:
        return YieldOp.create(operands=[SSAValue.get(v) for v in operands])

    def verify_(self) -> None:
        parent = self.parent_op()
        if parent is None or parent.name not in ("affine.for", "affine.if", "affine.parallel"):
            raise VerifyException("only terminates affine.if/for/parallel regions")
        if len(parent.results) != len(self.arguments):
            raise VerifyException(
                "parent of yield must have same number of results as the yield operands"
            )
        for result, value in zip(parent.results, self.arguments):
            if result.type != value.type:
                raise VerifyException("types mismatch between yield op and its parent")
