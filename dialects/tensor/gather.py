"""``tensor.gather`` and ``tensor.scatter``, which xDSL lacks.

Both index whole slices of a ranked tensor by a tensor of coordinates: the
leading dimensions of ``indices`` are the batch of slices, its last one holds
one coordinate per entry of ``gather_dims``/``scatter_dims``. The slice type
keeps the indexed dimensions as ``1`` or drops them (rank-reduced); the
verifiers accept either, with upstream's checks and wording.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IndexType, IntegerType, Signedness
from xdsl.dialects.builtin import TensorType, UnitAttr, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import IRDLOperation, operand_def, opt_prop_def, prop_def, result_def
from xdsl.irdl import traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.tensor.common import RANKED_TENSOR
from mlkit.dialects.utils.ods import type_str, upstream_op

_INDICES = "ranked tensor of signless integer or index values"
_DIMS_ATTR = "i64 dense array attribute"
_UNIT_ATTR = "unit attribute"


def infer_gather_type(
    whole: TensorType[Attribute], indices: TensorType[Attribute], dims: Sequence[int],
    rank_reduced: bool,
) -> TensorType[Attribute]:
    """The slice type for ``dims`` (upstream's ``GatherOp::inferResultType``):
    the batch dimensions of ``indices``, then ``whole``'s shape with each
    dimension in ``dims`` set to 1, or dropped when ``rank_reduced``."""
    shape = list(indices.get_shape()[:-1])
    for i, size in enumerate(whole.get_shape()):
        if i in dims:
            if not rank_reduced:
                shape.append(1)
            continue
        shape.append(size)
    return TensorType(whole.element_type, shape, whole.encoding)


def _verify_dims(
    kind: str, dims: Sequence[int], indices_shape: Sequence[int], rank: int, whole: str
) -> None:
    """Upstream's ``verifyGatherOrScatterDims``, in its order and words."""
    if not dims:
        raise VerifyException(f"{kind}_dims must be non-empty")
    if len(dims) > rank:
        raise VerifyException(f"{kind}_dims overflow {whole} rank")
    if not indices_shape or indices_shape[-1] != len(dims):
        raise VerifyException(
            f"{kind}_dims length must match the size of last dimension of indices"
        )
    for value in dims:
        if value < 0:
            raise VerifyException(f"{kind}_dims value must be non-negative")
        if value >= rank:
            raise VerifyException(f"{kind}_dims value must be smaller than {whole} rank")
    if any(a >= b for a, b in zip(dims, dims[1:])):
        raise VerifyException(f"{kind}_dims values must be strictly increasing")


def _is_index_element(element: Attribute) -> bool:
    return isinstance(element, IndexType) or (
        isinstance(element, IntegerType) and element.signedness.data == Signedness.SIGNLESS
    )


def _verify_invariants(op: IRDLOperation, dims_name: str, indices: int) -> None:
    """Upstream's ODS checks in its order and words: result and operand
    counts, attributes, then each operand, then the result. IRDL checks types
    first and words a ranked tensor constraint on an unranked one as a bare
    type mismatch."""
    if len(op.results) != 1:
        raise VerifyException("requires one result")
    operand_count = indices + 1
    if len(op.operands) != operand_count:
        raise VerifyException(
            f"expected {operand_count} operands, but found {len(op.operands)}"
        )
    dims = op.properties.get(dims_name)
    if dims is None:
        raise VerifyException(f"requires attribute '{dims_name}'")
    if not (isinstance(dims, DenseArrayBase) and dims.elt_type == i64):
        raise VerifyException(
            f"attribute '{dims_name}' failed to satisfy constraint: {_DIMS_ATTR}"
        )
    unique = op.properties.get("unique")
    if unique is not None and not isinstance(unique, UnitAttr):
        raise VerifyException(f"attribute 'unique' failed to satisfy constraint: {_UNIT_ATTR}")
    for i, value in enumerate(op.operands):
        type_ = value.type
        if i == indices:
            if not (isinstance(type_, TensorType) and _is_index_element(type_.element_type)):
                raise VerifyException(
                    f"operand #{i} must be {_INDICES}, but got {type_str(type_)}"
                )
        elif not isinstance(type_, TensorType):
            raise VerifyException(
                f"operand #{i} must be {RANKED_TENSOR}, but got {type_str(type_)}"
            )
    for i, value in enumerate(op.results):
        if not isinstance(value.type, TensorType):
            raise VerifyException(
                f"result #{i} must be {RANKED_TENSOR}, but got {type_str(value.type)}"
            )


def _verify_slice_type(
    what: str, got: Attribute, whole: TensorType[Attribute], indices: TensorType[Attribute],
    dims: Sequence[int],
) -> None:
    full = infer_gather_type(whole, indices, dims, rank_reduced=False)
    reduced = infer_gather_type(whole, indices, dims, rank_reduced=True)
    if got != full and got != reduced:
        raise VerifyException(
            f"{what} type mismatch: expected {type_str(full)} or its rank-reduced variant "
            f"{type_str(reduced)} (got: {type_str(got)})"
        )


@upstream_op
class GatherOp(IRDLOperation):
    """Slices of ``source`` at the coordinates in ``indices``."""

    name = "tensor.gather"

    source = operand_def()
    indices = operand_def()
    gather_dims = prop_def(DenseArrayBase.constr(i64))
    unique = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(Pure())
    assembly_format = (
        "$source `[` $indices `]` `gather_dims` `(` $gather_dims `)` (`unique` $unique^)? "
        "attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self, source: SSAValue, indices: SSAValue, gather_dims: Sequence[int],
        result_type: Attribute, unique: bool = False,
    ) -> None:
        props: dict[str, Attribute] = {"gather_dims": DenseArrayBase.from_list(i64, gather_dims)}
        if unique:
            props["unique"] = UnitAttr()
        super().__init__(operands=[source, indices], result_types=[result_type], properties=props)

    def dims(self) -> tuple[int, ...]:
        return tuple(self.gather_dims.get_values())  # type: ignore[arg-type]

    def asm_result_name(self) -> str:
        return "gather"

    def verify_relations_(self) -> None:
        _verify_invariants(self, "gather_dims", 1)

    def verify_(self) -> None:
        source, indices = self.source.type, self.indices.type
        assert isinstance(source, TensorType) and isinstance(indices, TensorType)
        dims = self.dims()
        _verify_dims("gather", dims, indices.get_shape(), source.get_num_dims(), "source")
        _verify_slice_type("result", self.result.type, source, indices, dims)


@upstream_op
class ScatterOp(IRDLOperation):
    """``dest`` with slices from ``source`` written at the coordinates in
    ``indices``; the coordinates must be declared ``unique``."""

    name = "tensor.scatter"

    source = operand_def()
    dest = operand_def()
    indices = operand_def()
    scatter_dims = prop_def(DenseArrayBase.constr(i64))
    unique = opt_prop_def(UnitAttr)
    result = result_def()

    traits = traits_def(Pure())
    assembly_format = (
        "$source `into` $dest `[` $indices `]` `scatter_dims` `(` $scatter_dims `)` "
        "(`unique` $unique^)? attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self, source: SSAValue, dest: SSAValue, indices: SSAValue, scatter_dims: Sequence[int],
        result_type: Attribute, unique: bool = True,
    ) -> None:
        props: dict[str, Attribute] = {
            "scatter_dims": DenseArrayBase.from_list(i64, scatter_dims)
        }
        if unique:
            props["unique"] = UnitAttr()
        super().__init__(
            operands=[source, dest, indices], result_types=[result_type], properties=props
        )

    def dims(self) -> tuple[int, ...]:
        return tuple(self.scatter_dims.get_values())  # type: ignore[arg-type]

    def asm_result_name(self) -> str:
        return "scatter"

    def verify_relations_(self) -> None:
        _verify_invariants(self, "scatter_dims", 2)

    def verify_(self) -> None:
        # Upstream checks neither the result against dest nor element types
        # beyond the source's slice type.
        dest, indices = self.dest.type, self.indices.type
        assert isinstance(dest, TensorType) and isinstance(indices, TensorType)
        dims = self.dims()
        _verify_dims("scatter", dims, indices.get_shape(), dest.get_num_dims(), "dest")
        if self.unique is None:
            raise VerifyException("requires 'unique' attribute to be set")
        _verify_slice_type("source", self.source.type, dest, indices, dims)
