"""``gpu.func`` and its terminator ``gpu.return``, with upstream's syntax and verifier.

A GPU function's entry block takes, after the function's own arguments, its
workgroup and private memory attributions, which its custom form declares in
``workgroup(...)``/``private(...)`` clauses (upstream's ``GPUFuncOp::parse``).
xDSL 0.75's ``gpu.func`` has no custom syntax, lacks the attributions'
attributes and stores ``gpu.known_block_size`` as a discardable attribute where
upstream has a ``known_block_size`` property.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, DictionaryAttr, FunctionType
from xdsl.dialects.builtin import IntegerAttr, MemRefType, SymbolNameConstraint, UnitAttr, i32, i64
from xdsl.ir import Attribute, BlockArgument
from xdsl.irdl import IRDLOperation, attr_def, irdl_op_definition, opt_prop_def, prop_def
from xdsl.irdl import BaseAttr, VerificationContext, region_def, traits_def, var_operand_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsolatedFromAbove, IsTerminator, Pure, SymbolOpInterface
from xdsl.utils.exceptions import VerifyException

from mlkit.diagnostics.verifier import ErrorAt
from mlkit.dialects.gpu.attrs import AddressSpace, AddressSpaceAttr
from mlkit.dialects.gpu.module import GPUModuleOp
from mlkit.dialects.gpu.syntax import parse_attributions, parse_typed_args, print_attributions
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict
from mlkit.dialects.utils.signatures import attrs_at, dict_array, parse_function_results
from mlkit.dialects.utils.signatures import print_function_inputs, print_function_results

# attributes upstream never prints in gpu.func's `attributes {...}`
_FUNC_ELIDED = frozenset(
    {
        "sym_name",
        "function_type",
        "arg_attrs",
        "res_attrs",
        "workgroup_attrib_attrs",
        "private_attrib_attrs",
        "workgroup_attributions",
        "kernel",
    }
)


DimSizeHint = DenseArrayBase.constr(i32)


@dataclass(frozen=True)
class _FunctionTypeProperty(BaseAttr[FunctionType]):
    """``function_type``, failing in upstream's words (``TypeAttrOf<FunctionType>``);
    IRDL's own says ``f32 should be of base attribute fun``."""

    attr: type[FunctionType] = FunctionType

    def verify(self, attr: Attribute, constraint_context: VerificationContext) -> None:
        if not isinstance(attr, FunctionType):
            raise VerifyException(
                "attribute 'function_type' failed to satisfy constraint: "
                "type attribute of function type"
            )


# discardable launch-size hints, which any op may carry (upstream's helpers)
KNOWN_SIZE_ATTRS = ("gpu.known_block_size", "gpu.known_grid_size")


def verify_known_size_attrs(op: IRDLOperation) -> None:
    """Upstream's ``GPUDialect::verifyOperationAttribute`` for the launch-size
    hints: a dense i32 array of 3 elements. mlkit has no per-dialect attribute
    verifier hook, so the op that carries them (``gpu.func``) calls this."""
    for name in KNOWN_SIZE_ATTRS:
        attr = op.attributes.get(name)
        if attr is None:
            continue
        if not (isinstance(attr, DenseArrayBase) and attr.elt_type == i32):
            raise VerifyException(f"{name} must be a dense i32 array")
        if len(attr) != 3:
            raise VerifyException(f"{name} must contain exactly 3 elements")


def verify_attributions(values: Sequence[BlockArgument], space: AddressSpace) -> None:
    """Upstream's check of workgroup/private attribution types."""
    for v in values:
        if not isinstance(v.type, MemRefType):
            raise VerifyException("expected memref type in attribution")
        ms = v.type.memory_space
        if isinstance(ms, AddressSpaceAttr) and ms.data != space:
            raise VerifyException(f"expected memory space {space.value} in attribution")


def _parse_named_args(
    parser: Parser, entry: list[Parser.Argument], pos: int
) -> list[dict[str, Attribute]]:
    """The function's arguments, which upstream requires to be named."""
    if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
        probe = parser.pos
        parser.parse_punctuation("(")
        named = parser._current_token.text.startswith("%") or parser._current_token.text == ")"  # pyright: ignore[reportPrivateUsage]
        parser._resume_from(probe)  # pyright: ignore[reportPrivateUsage]
        if not named:
            parser.raise_error("gpu.func requires named arguments", pos)
    return parse_typed_args(parser, entry)


@irdl_op_definition
class GPUFuncOp(IRDLOperation):
    """A function run on the GPU, with workgroup and private memory
    attributions as extra entry-block arguments after the function's own."""

    name = "gpu.func"

    sym_name = attr_def(SymbolNameConstraint())
    function_type = prop_def(_FunctionTypeProperty())
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    workgroup_attrib_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    private_attrib_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    known_block_size = opt_prop_def(DimSizeHint)
    known_grid_size = opt_prop_def(DimSizeHint)
    known_cluster_size = opt_prop_def(DimSizeHint)
    workgroup_attributions = opt_prop_def(IntegerAttr.constr(type=i64))
    kernel = opt_prop_def(UnitAttr)
    body = region_def()

    traits = traits_def(
        IsolatedFromAbove(), HasParent(GPUModuleOp), SymbolOpInterface()
    )

    # properties upstream prints in the `attributes {...}` dictionary
    PRINTED_PROPERTIES: ClassVar[tuple[str, ...]] = (
        "known_block_size",
        "known_grid_size",
        "known_cluster_size",
    )

    @property
    def num_workgroup_attributions(self) -> int:
        n = self.workgroup_attributions
        return 0 if n is None else n.value.data

    def workgroup_args(self) -> Sequence[BlockArgument]:
        first = len(self.function_type.inputs)
        return self.body.blocks[0].args[first : first + self.num_workgroup_attributions]

    def private_args(self) -> Sequence[BlockArgument]:
        first = len(self.function_type.inputs) + self.num_workgroup_attributions
        return self.body.blocks[0].args[first:]

    @classmethod
    def parse(cls, parser: Parser) -> GPUFuncOp:
        """``@name(args) (-> results)? workgroup(...)? private(...)? kernel?
        (attributes {...})? region``."""
        name = parser.parse_symbol_name()
        pos = parser.pos
        entry: list[Parser.Argument] = []
        arg_attrs = _parse_named_args(parser, entry, pos)
        inputs = [a.type for a in entry]
        results, res_attrs = parse_function_results(parser)
        props: dict[str, Attribute] = {"function_type": FunctionType.from_lists(inputs, results)}
        if (a := dict_array(arg_attrs)) is not None:
            props["arg_attrs"] = a
        if (r := dict_array(res_attrs)) is not None:
            props["res_attrs"] = r
        n_workgroup, wg_attrs = parse_attributions(parser, "workgroup", entry)
        if n_workgroup:
            props["workgroup_attributions"] = IntegerAttr(n_workgroup, i64)
        if wg_attrs is not None:
            props["workgroup_attrib_attrs"] = wg_attrs
        _, private_attrs = parse_attributions(parser, "private", entry)
        if private_attrs is not None:
            props["private_attrib_attrs"] = private_attrs
        if parser.parse_optional_keyword("kernel") is not None:
            props["kernel"] = UnitAttr()
        extra = parser.parse_optional_attr_dict_with_keyword()
        # inherent attributes written in the dictionary are properties
        inherent, attrs = split_attr_dict(cls, extra.data if extra is not None else {})
        body = parser.parse_region(entry)
        return cls.create(
            properties=props | inherent, attributes={"sym_name": name, **attrs}, regions=[body]
        )

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_symbol_name(self.sym_name.data)
        ftype = self.function_type
        args = self.body.blocks[0].args[: len(ftype.inputs)] if self.body.blocks else None
        print_function_inputs(printer, args, ftype.inputs.data, self.arg_attrs)
        outputs = ftype.outputs.data
        res_attrs = [attrs_at(self.res_attrs, i) for i in range(len(outputs))]
        print_function_results(printer, outputs, res_attrs)
        print_attributions(printer, "workgroup", self.workgroup_args(), self.workgroup_attrib_attrs)
        print_attributions(printer, "private", self.private_args(), self.private_attrib_attrs)
        if self.kernel is not None:
            printer.print_string(" kernel")
        print_attr_dict(printer, self, _FUNC_ELIDED, keyword=True)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        verify_known_size_attrs(self)
        for name in self.PRINTED_PROPERTIES:
            attr = self.properties.get(name)
            if isinstance(attr, DenseArrayBase) and (
                len(attr) != 3 or any(v < 1 for v in attr.get_values())
            ):
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: i32 dense array "
                    "attribute with 3 elements (if present) and all elements >= 1"
                )
        ftype = self.function_type
        if self.kernel is not None and ftype.outputs.data:
            raise VerifyException("expected void return type for kernel function")
        if not self.body.blocks:
            raise VerifyException("expected body with at least one block")
        args = self.body.blocks[0].args
        needed = len(ftype.inputs) + self.num_workgroup_attributions
        if len(args) < needed:
            raise VerifyException(f"expected at least {needed} arguments to body region")
        for i, (want, arg) in enumerate(zip(ftype.inputs.data, args)):
            if want != arg.type:
                raise VerifyException(
                    f"expected body region argument #{i} to be of type {want}, got {arg.type}"
                )
        verify_attributions(self.workgroup_args(), AddressSpace.WORKGROUP)
        verify_attributions(self.private_args(), AddressSpace.PRIVATE)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Terminator of ``gpu.func`` bodies."""

    name = "gpu.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(GPUFuncOp), Pure())
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def verify_(self) -> None:
        func = self.parent_op()
        while func is not None and not isinstance(func, GPUFuncOp):
            func = func.parent_op()
        if func is None:
            return
        results = func.function_type.outputs.data
        if len(results) != len(self.values):
            raise ErrorAt(
                None,
                f"expected {len(results)} result operands",
                [(func, "return type declared here")],
            )
        for i, (want, value) in enumerate(zip(results, self.values)):
            if want != value.type:
                raise VerifyException(f"unexpected type `'{value.type}'' for operand #{i}")
