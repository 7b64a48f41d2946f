"""Transform ops that move handles around or run cleanups, in upstream's syntax.

xDSL defines ``cast``, ``merge_handles``, ``split_handle`` and
``get_parent_op`` in the generic form only; these classes give them
upstream's custom syntax. ``apply_cse``, ``apply_patterns`` (with
``apply_patterns.canonicalization``), ``structured.generalize`` and
``structured.interchange`` are missing from xDSL.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, IntegerAttr, StringAttr, UnitAttr, i64
from xdsl.dialects.transform import TransformHandleType
from xdsl.ir import Region
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    VarConstraint,
    base,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import NoTerminator
from xdsl.utils.exceptions import VerifyException

__all__ = [
    "ApplyCanonicalizationPatternsOp",
    "ApplyCseOp",
    "ApplyPatternsOp",
    "CastOp",
    "DecomposeInterfaceOp",
    "GeneralizeOp",
    "GetParentOp",
    "HANDLE_OPS",
    "InterchangeOp",
    "MergeHandlesOp",
    "SplitHandleOp",
]


@irdl_op_definition
class CastOp(IRDLOperation):
    """``transform.cast %h : !transform.any_op to !transform.op<"linalg.matmul">``."""

    name = "transform.cast"

    input = operand_def(TransformHandleType)
    output = result_def(TransformHandleType)
    assembly_format = "$input attr-dict `:` type($input) `to` type($output)"


@irdl_op_definition
class MergeHandlesOp(IRDLOperation):
    """``transform.merge_handles deduplicate %a, %b : !transform.any_op``."""

    name = "transform.merge_handles"

    T: ClassVar = VarConstraint("T", base(TransformHandleType))
    deduplicate = opt_prop_def(UnitAttr)
    handles = var_operand_def(T)
    result = result_def(T)
    assembly_format = "(`deduplicate` $deduplicate^)? $handles attr-dict `:` type($result)"

    def verify_(self) -> None:
        if not self.handles:
            raise VerifyException("expects at least one handle")


@irdl_op_definition
class SplitHandleOp(IRDLOperation):
    """``transform.split_handle %h : (!transform.any_op) -> (!transform.any_op, ...)``:
    one handle per payload op."""

    name = "transform.split_handle"

    pass_through_empty_handle = opt_prop_def(BoolAttr)
    fail_on_payload_too_small = opt_prop_def(BoolAttr)
    overflow_result = opt_prop_def(IntegerAttr)
    handle = operand_def(TransformHandleType)
    results_ = var_result_def(TransformHandleType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$handle attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class GetParentOp(IRDLOperation):
    """``transform.get_parent_op %h {op_name = "func.func"} : (..) -> ..``."""

    name = "transform.get_parent_op"

    isolated_from_above = opt_prop_def(UnitAttr)
    allow_empty_results = opt_prop_def(UnitAttr)
    op_name = opt_prop_def(StringAttr)
    deduplicate = opt_prop_def(UnitAttr)
    nth_parent = opt_prop_def(IntegerAttr)
    target = operand_def(TransformHandleType)
    parent_result = result_def(TransformHandleType)
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$target attr-dict `:` functional-type(operands, results)"

    def verify_(self) -> None:
        if self.nth_parent is not None and self.nth_parent.value.data < 1:
            raise VerifyException("expects nth_parent to be at least 1")


@irdl_op_definition
class ApplyCseOp(IRDLOperation):
    """``transform.apply_cse to %h : !transform.any_op``: CSE in the payload ops."""

    name = "transform.apply_cse"

    target = operand_def(TransformHandleType)
    assembly_format = "`to` $target attr-dict `:` type($target)"


@irdl_op_definition
class ApplyPatternsOp(IRDLOperation):
    """``transform.apply_patterns to %h { <pattern ops> } : !transform.any_op``:
    the patterns its region names, greedily, on the payload ops."""

    name = "transform.apply_patterns"

    target = operand_def(TransformHandleType)
    apply_cse = opt_prop_def(UnitAttr)
    max_iterations = opt_prop_def(IntegerAttr)
    max_num_rewrites = opt_prop_def(IntegerAttr)
    patterns = region_def("single_block")
    traits = traits_def(NoTerminator())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`to` $target $patterns attr-dict `:` type($target)"

    def __init__(self, target: object, patterns: Region) -> None:
        super().__init__(operands=[target], regions=[patterns])


@irdl_op_definition
class ApplyCanonicalizationPatternsOp(IRDLOperation):
    """``transform.apply_patterns.canonicalization``: every op's canonicalization
    patterns, as ``canonicalize`` runs them."""

    name = "transform.apply_patterns.canonicalization"
    assembly_format = "attr-dict"


@irdl_op_definition
class GeneralizeOp(IRDLOperation):
    """``transform.structured.generalize %h``: named linalg ops become ``linalg.generic``."""

    name = "transform.structured.generalize"

    target = operand_def(TransformHandleType)
    transformed = result_def(TransformHandleType)
    assembly_format = "$target attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class DecomposeInterfaceOp(IRDLOperation):
    """``transform.structured.decompose_interface %h``: ops of upstream's
    ``AggregatedOpInterface`` (``linalg.softmax``) become the ops they stand for."""

    name = "transform.structured.decompose_interface"

    target = operand_def(TransformHandleType)
    transformed = result_def(TransformHandleType)
    assembly_format = "$target attr-dict `:` functional-type(operands, results)"


@irdl_op_definition
class InterchangeOp(IRDLOperation):
    """``transform.structured.interchange %h iterator_interchange = [1, 0]``:
    permute a ``linalg.generic``'s loops."""

    name = "transform.structured.interchange"

    target = operand_def(TransformHandleType)
    iterator_interchange = prop_def(
        DenseArrayBase.constr(i64), default_value=DenseArrayBase.from_list(i64, [])
    )
    transformed = result_def(TransformHandleType)
    assembly_format = (
        "$target (`iterator_interchange` `=` $iterator_interchange^)? attr-dict "
        "`:` functional-type(operands, results)"
    )

    def verify_(self) -> None:
        values = list(self.iterator_interchange.get_values())
        if sorted(values) != list(range(len(values))):
            found = ", ".join(map(str, values))
            raise VerifyException(f"expects iterator_interchange to be a permutation, found {found}")


HANDLE_OPS = (
    CastOp,
    MergeHandlesOp,
    SplitHandleOp,
    GetParentOp,
    ApplyCseOp,
    ApplyPatternsOp,
    ApplyCanonicalizationPatternsOp,
    GeneralizeOp,
    DecomposeInterfaceOp,
    InterchangeOp,
)
