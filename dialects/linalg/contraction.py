"""linalg's contractions: matmul, batch_matmul, batch_reduce_matmul, matvec,
vecmat, dot, mmt4d and contract.

Each body is ``out + cast(lhs) * cast(rhs)`` in the init's element type. matmul,
batch_matmul and batch_reduce_matmul also carry upstream's ``indexing_maps``
property (explicit maps transpose or broadcast operands; the parser fills in the
defaults) and ``cast`` property (signed or unsigned extension). ``linalg.contract``
is the einsum-like op whose loops are whatever its required ``indexing_maps`` say.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, ShapedType
from xdsl.ir import Attribute, Operation
from xdsl.ir.affine import AffineDimExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def, prop_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.attrs import BinaryFn, IteratorType, TypeFn, TypeFnAttr
from mlkit.dialects.linalg.body import BodyBuilder
from mlkit.dialects.linalg.named_base import NamedStructuredOp, maps_array, parse_maps_keyword
from mlkit.dialects.linalg.named_base import print_maps_keyword

__all__ = [
    "CONTRACTION_OPS",
    "BatchMatmulOp",
    "BatchReduceMatmulOp",
    "ContractOp",
    "DotOp",
    "MatmulOp",
    "MatvecOp",
    "Mmt4DOp",
    "VecmatOp",
    "multiply_accumulate",
]

P, R = IteratorType.PARALLEL, IteratorType.REDUCTION


def _maps(num_dims: int, *operands: Sequence[int]) -> list[AffineMap]:
    return [
        AffineMap(num_dims, 0, tuple(AffineDimExpr(d) for d in dims))
        for dims in operands
    ]


def multiply_accumulate(b: BodyBuilder, fn: TypeFn = TypeFn.CAST_SIGNED) -> None:
    """``out + cast(lhs) * cast(rhs)``, all in the init's element type."""
    lhs, rhs, out = b.args[0], b.args[1], b.args[-1]
    product = b.binary(
        BinaryFn.MUL, b.cast(out.type, lhs, fn), b.cast(out.type, rhs, fn)
    )
    b.yield_(b.binary(BinaryFn.ADD, out, product))


_ADD_OPS = ("arith.addf", "arith.addi", "arith.ori", "complex.add")
_MUL_OPS = ("arith.mulf", "arith.muli", "arith.andi", "complex.mul")


def _is_contraction_body(op: NamedStructuredOp) -> bool:
    """Upstream's ``isContractionBody``: yield(add(out, mul(a, b))), where a and
    b are the input arguments, possibly through one cast each."""
    block = op.body.block
    ops = list(block.ops)
    if not ops or not ops[-1].operands:
        return False
    add = ops[-1].operands[0].owner
    if not isinstance(add, Operation) or add.name not in _ADD_OPS:
        return False
    out = block.args[-1]
    others = [v for v in add.operands if v is not out]
    if len(others) != 1 or len(add.operands) != 2:
        return False
    mul = others[0].owner
    if not isinstance(mul, Operation) or mul.name not in _MUL_OPS:
        return False

    def source(v: object) -> object:
        owner = getattr(v, "owner", None)
        if (
            isinstance(owner, Operation)
            and len(owner.operands) == 1
            and owner.parent is block
        ):
            return owner.operands[0]
        return v

    return {source(v) for v in mul.operands} == set(block.args[:2])


class ContractionOp(NamedStructuredOp):
    """A contraction: fixed loops, multiply-accumulate body, upstream's checks
    that the body really is one (``ContractionOpInterface``)."""

    NUM_REGION_ARGS: ClassVar[int | None] = 3

    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]]
    ITERATORS: ClassVar[tuple[IteratorType, ...]]

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.DEFAULT_MAPS

    def iterator_kinds(self) -> list[IteratorType]:
        return list(self.ITERATORS)

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        cast = props.get("cast")
        multiply_accumulate(
            b, cast.data if isinstance(cast, TypeFnAttr) else TypeFn.CAST_SIGNED
        )

    def verify_(self) -> None:
        super().verify_()
        if len(self.inputs) != 2 or len(self.outputs) != 1:
            raise VerifyException("expected op with 2 inputs and 1 output")
        if not _is_contraction_body(self):
            raise VerifyException("expected add/mul op in the body")


class UserMapsContractionOp(ContractionOp):
    """A contraction whose operands may be transposed or broadcast by explicit
    ``indexing_maps`` (upstream keeps them as a property, defaults included)."""

    indexing_maps = opt_prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)

    ELIDED: ClassVar[tuple[str, ...]] = ("indexing_maps",)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        if self.indexing_maps is not None:
            return self.indexing_maps
        return maps_array(self.DEFAULT_MAPS)

    def has_user_defined_maps(self) -> bool:
        return list(self.get_indexing_maps().data) != list(
            maps_array(self.DEFAULT_MAPS).data
        )

    @classmethod
    def default_properties(
        cls, operand_types: Sequence[Attribute], props: Mapping[str, Attribute]
    ) -> dict[str, Attribute]:
        return {"indexing_maps": maps_array(cls.DEFAULT_MAPS)}

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        maps = parse_maps_keyword(parser)
        return {} if maps is None else {"indexing_maps": maps}

    def print_prefix(self, printer: Printer) -> None:
        if self.has_user_defined_maps():
            print_maps_keyword(printer, self.get_indexing_maps())

    def verify_op(self) -> None:
        if not self.has_user_defined_maps():
            return
        maps = self.indexing_maps_list()
        if len(maps) != len(self.DEFAULT_MAPS):
            raise VerifyException(
                f"expected {len(self.DEFAULT_MAPS)} indexing maps, but got {len(maps)}"
            )
        for given, default in zip(maps[:2], self.DEFAULT_MAPS[:2]):
            if not set(given.results) <= set(default.results):
                raise VerifyException("Unexpected dim expression in map result.")


@irdl_op_definition
class MatmulOp(UserMapsContractionOp):
    name = "linalg.matmul"
    # (m, n, k): C[m, n] += A[m, k] * B[k, n]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(
        _maps(3, (0, 2), (2, 1), (0, 1))
    )
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (P, P, R)


@irdl_op_definition
class BatchMatmulOp(UserMapsContractionOp):
    name = "linalg.batch_matmul"
    # (b, m, n, k): C[b, m, n] += A[b, m, k] * B[b, k, n]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(
        _maps(4, (0, 1, 3), (0, 3, 2), (0, 1, 2))
    )
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (P, P, P, R)


@irdl_op_definition
class BatchReduceMatmulOp(UserMapsContractionOp):
    name = "linalg.batch_reduce_matmul"
    # (b, m, n, k): C[m, n] += A[b, m, k] * B[b, k, n]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(
        _maps(4, (0, 1, 3), (0, 3, 2), (1, 2))
    )
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (R, P, P, R)


@irdl_op_definition
class MatvecOp(ContractionOp):
    name = "linalg.matvec"
    # (m, n): x[m] += A[m, n] * y[n]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(_maps(2, (0, 1), (1,), (0,)))
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (P, R)


@irdl_op_definition
class VecmatOp(ContractionOp):
    name = "linalg.vecmat"
    # (n, m): x[n] += y[m] * A[m, n]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(_maps(2, (1,), (1, 0), (0,)))
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (P, R)


@irdl_op_definition
class DotOp(ContractionOp):
    name = "linalg.dot"
    # (k): C[] += A[k] * B[k]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(_maps(1, (0,), (0,), ()))
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (R,)


@irdl_op_definition
class Mmt4DOp(ContractionOp):
    name = "linalg.mmt4d"
    # (m, n, k, m0, n0, k0): C[m, n, m0, n0] += A[m, k, m0, k0] * B[n, k, n0, k0]
    DEFAULT_MAPS: ClassVar[tuple[AffineMap, ...]] = tuple(
        _maps(6, (0, 2, 3, 5), (1, 2, 4, 5), (0, 1, 3, 4))
    )
    ITERATORS: ClassVar[tuple[IteratorType, ...]] = (P, P, R, P, P, R)


@irdl_op_definition
class ContractOp(ContractionOp):
    """``linalg.contract indexing_maps = [...] ins(%a, %b) outs(%c)``: a contraction
    over any iteration space. A loop is parallel when the output's map uses it and
    a reduction otherwise (upstream's ``getIteratorTypesArray``)."""

    name = "linalg.contract"

    indexing_maps = prop_def(ArrayAttr[AffineMapAttr])
    cast = opt_prop_def(TypeFnAttr)

    ELIDED: ClassVar[tuple[str, ...]] = ("indexing_maps",)

    def get_indexing_maps(self) -> ArrayAttr[AffineMapAttr]:
        return self.indexing_maps

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        return self.indexing_maps_list()

    def iterator_kinds(self) -> list[IteratorType]:
        maps = self.indexing_maps_list()
        if not maps:
            return []
        used = {e.position for e in maps[-1].results if isinstance(e, AffineDimExpr)}
        return [P if d in used else R for d in range(maps[0].num_dims)]

    @classmethod
    def parse_prefix(cls, parser: Parser) -> dict[str, Attribute]:
        pos = parser.pos
        maps = parse_maps_keyword(parser)
        if maps is None:
            parser.raise_error("expected 'indexing_maps' attribute", pos, pos)
        return {"indexing_maps": maps}

    def print_prefix(self, printer: Printer) -> None:
        print_maps_keyword(printer, self.indexing_maps)

    def verify_(self) -> None:
        self._verify_contraction_maps()
        super().verify_()

    def _verify_contraction_maps(self) -> None:
        """Upstream's ``ContractOp::verify``, which runs before the structured
        interface's checks: projected permutations over one iteration space,
        every loop used, each loop a contracting or a parallel one."""
        num_dims: int | None = None
        in_uses: list[int] = []
        out_uses: list[int] = []
        roles = (True, True, False)
        for indexing_map, value, is_input in zip(self.indexing_maps_list(), self.operands, roles):
            if indexing_map.num_symbols or not _is_projected_permutation(indexing_map):
                raise VerifyException("provided affine_map is not a projected permutation")
            if isinstance(value.type, ShapedType):
                if len(indexing_map.results) != len(value.type.get_shape()):
                    raise VerifyException(
                        "ranks of shaped operand and results of corresponding affine_map differ"
                    )
            elif indexing_map.results:
                raise VerifyException(
                    "affine_map specifies shaped access while operand has non-shaped type"
                )
            if num_dims is None:
                num_dims = indexing_map.num_dims
                in_uses, out_uses = [0] * num_dims, [0] * num_dims
            elif num_dims != indexing_map.num_dims:
                raise VerifyException("iteration spaces of provided affine_maps differ")
            for expr in indexing_map.results:
                assert isinstance(expr, AffineDimExpr)
                (in_uses if is_input else out_uses)[expr.position] += 1
        has_contracting = False
        for dim, (ins, outs) in enumerate(zip(in_uses, out_uses)):
            has_contracting |= ins == 2 and outs == 0
            if ins == 0 and outs == 0:
                raise VerifyException(
                    f"iteration space dim at index {dim} not used to access any operand"
                )
            if ins == 1 and outs != 1:
                raise VerifyException(
                    f"iteration space dim at index {dim} is neither a contracting dim nor "
                    "of parallel iteration type"
                )
        if not has_contracting:
            raise VerifyException("'indexing_maps' do not specify a contracting dimension")


def _is_projected_permutation(indexing_map: AffineMap) -> bool:
    """Each result a distinct dimension (upstream's ``isProjectedPermutation``,
    without its allowance for zero constants, which contract does not take)."""
    dims = [e.position for e in indexing_map.results if isinstance(e, AffineDimExpr)]
    return len(dims) == len(indexing_map.results) and len(set(dims)) == len(dims)


CONTRACTION_OPS: tuple[type[NamedStructuredOp], ...] = (
    MatmulOp,
    BatchMatmulOp,
    BatchReduceMatmulOp,
    MatvecOp,
    VecmatOp,
    DotOp,
    Mmt4DOp,
    ContractOp,
)
