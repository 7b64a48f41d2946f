"""``llvm.func`` and ``llvm.mlir.global``: the LLVM dialect's symbols.

Replaces xDSL's versions: xDSL drops argument attributes of declarations,
prints linkage and calling convention where upstream leaves the defaults out,
keeps many inherent attributes (``no_inline``, ``alignment``, ...) out of the
properties, and has no ``thread_local``, ``constant`` or string-typed globals
in upstream's form.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr, UnitAttr, i8
from xdsl.ir import Attribute, Region
from xdsl.irdl import AnyAttr, IRDLOperation, irdl_op_definition, opt_prop_def, prop_def
from xdsl.irdl import region_def, traits_def
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.func import verify_dialect_attrs
from mlkit.dialects.llvm.attrs import CALLING_CONVENTIONS, LINKAGES, TLS_MODES, UNNAMED_ADDRS
from mlkit.dialects.llvm.attrs import VISIBILITIES, CConvAttr, LinkageAttr, i64_enum
from mlkit.dialects.llvm.attrs import alignment_property
from mlkit.dialects.llvm.types import LLVMArrayType, LLVMFunctionType, LLVMVoidType
from mlkit.dialects.utils.attr_dict import print_attr_dict, split_attr_dict
from mlkit.dialects.utils.signatures import attrs_at, dict_array, parse_function_results
from mlkit.dialects.utils.signatures import print_function_inputs, print_function_results
from mlkit.dialects.utils.symbols import UpstreamSymbol

# upstream LLVMFuncOp's inherent attributes besides those handled by name below
_FUNC_EXTRA_PROPS = (
    "sym_visibility dso_local comdat convergent personality garbageCollector passthrough "
    "function_entry_count memory_effects arm_streaming arm_locally_streaming "
    "arm_streaming_compatible arm_new_za arm_in_za arm_out_za arm_inout_za arm_preserves_za "
    "section alignment vscale_range frame_pointer target_cpu tune_cpu reciprocal_estimates "
    "prefer_vector_width target_features no_infs_fp_math no_nans_fp_math "
    "no_signed_zeros_fp_math denormal_fp_math denormal_fp_math_f32 fp_contract "
    "instrument_function_entry instrument_function_exit no_inline always_inline inline_hint "
    "no_unwind will_return optimize_none vec_type_hint work_group_size_hint "
    "reqd_work_group_size intel_reqd_sub_group_size uwtable_kind unsafe_fp_math "
    "approx_func_fp_math use_sample_profile no_builtins"
).split()

_VISIBILITY_NAMES = {v: k for k, v in VISIBILITIES.items()}
_UNNAMED_ADDR_NAMES = {v: k for k, v in UNNAMED_ADDRS.items()}


def _keyword(parser: Parser, table: dict[str, int], default: int) -> IntegerAttr:
    word = parser.parse_optional_keyword_in([k for k in table if k])
    return i64_enum(table[word] if word is not None else default)


def _int(attr: Attribute | None) -> int:
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


@irdl_op_definition
class FuncOp(IRDLOperation):
    """``llvm.func internal @f(%arg0: i32 {llvm.noalias}) -> i32 attributes {...} {...}``."""

    name = "llvm.func"
    body = region_def()
    sym_name = prop_def(StringAttr)
    function_type = prop_def(LLVMFunctionType)
    linkage = prop_def(LinkageAttr, default_value=LinkageAttr("external"))
    CConv = prop_def(CConvAttr, default_value=CConvAttr())
    visibility_ = prop_def(IntegerAttr, default_value=i64_enum(0))
    unnamed_addr = opt_prop_def(IntegerAttr)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    traits = traits_def(UpstreamSymbol(), IsolatedFromAbove())

    for _name in _FUNC_EXTRA_PROPS:
        locals()[_name] = opt_prop_def(AnyAttr())
    del _name

    def __init__(
        self,
        name: str,
        function_type: LLVMFunctionType,
        *,
        linkage: str = "external",
        body: Region | None = None,
        properties: dict[str, Attribute] | None = None,
    ) -> None:
        props: dict[str, Attribute] = {
            "sym_name": StringAttr(name),
            "function_type": function_type,
            "linkage": LinkageAttr(linkage),
            # what upstream's custom parser sets, so built and parsed functions agree
            "unnamed_addr": i64_enum(0),
        }
        super().__init__(regions=[body or Region()], properties=props | (properties or {}))

    @property
    def is_declaration(self) -> bool:
        return not self.body.blocks

    @classmethod
    def parse(cls, parser: Parser) -> FuncOp:
        props: dict[str, Attribute] = {}
        linkage = parser.parse_optional_keyword_in(LINKAGES)
        props["linkage"] = LinkageAttr(linkage or "external")
        props["visibility_"] = _keyword(parser, VISIBILITIES, 0)
        props["unnamed_addr"] = _keyword(parser, UNNAMED_ADDRS, 0)
        cconv = parser.parse_optional_keyword_in(CALLING_CONVENTIONS)
        props["CConv"] = CConvAttr(cconv or "ccc")
        props["sym_name"] = parser.parse_symbol_name()
        args, arg_attrs, variadic = _parse_arguments(parser)
        results, res_attrs = parse_function_results(parser)
        at = parser.pos
        if len(results) > 1:
            parser.raise_error("expected zero or one function result", at)
        arg_types = [a if isinstance(a, Attribute) else a.type for a in args]
        props["function_type"] = LLVMFunctionType(
            arg_types, results[0] if results else None, variadic
        )
        if (arg_array := dict_array(arg_attrs)) is not None:
            props["arg_attrs"] = arg_array
        if (res_array := dict_array(res_attrs)) is not None:
            props["res_attrs"] = res_array
        extra = parser.parse_optional_attr_dict_with_keyword()
        extra_props, attrs = split_attr_dict(cls, extra.data if extra else {})
        props |= extra_props
        named = [a for a in args if not isinstance(a, Attribute)]
        if named and len(named) != len(args):
            parser.raise_error("expected all arguments to be named or all unnamed", at)
        region = parser.parse_optional_region(named if named else None)
        return cls.create(properties=props, attributes=attrs, regions=[region or Region()])

    def print(self, printer: Printer) -> None:
        assert isinstance(self.linkage, LinkageAttr) and isinstance(self.CConv, CConvAttr)
        words = []
        if self.linkage.linkage.data != "external":
            words.append(self.linkage.linkage.data)
        if visibility := _int(self.visibility_):
            words.append(_VISIBILITY_NAMES[visibility])
        if unnamed := _int(self.unnamed_addr):
            words.append(_UNNAMED_ADDR_NAMES[unnamed])
        if self.CConv.cconv.data != "ccc":
            words.append(self.CConv.cconv.data)
        printer.print_string(" " + "".join(w + " " for w in words))
        printer.print_symbol_name(self.sym_name.data)
        fn = self.function_type
        assert isinstance(fn, LLVMFunctionType)
        entry = self.body.blocks[0].args if self.body.blocks else None
        print_function_inputs(printer, entry, fn.inputs.data, self.arg_attrs, fn.is_variadic)
        outputs = [] if isinstance(fn.output, LLVMVoidType) else [fn.output]
        print_function_results(printer, outputs, [attrs_at(self.res_attrs, 0)])
        elided = ("sym_name", "function_type", "arg_attrs", "res_attrs", "linkage", "CConv",
                  "visibility_", "unnamed_addr")  # fmt: skip
        print_attr_dict(printer, self, elided, keyword=True)
        if self.body.blocks:
            printer.print_string(" ")
            printer.print_region(self.body, print_entry_block_args=False)

    def verify_(self) -> None:
        assert isinstance(self.linkage, LinkageAttr)
        fn = self.function_type
        assert isinstance(fn, LLVMFunctionType)
        verify_dialect_attrs(self.arg_attrs, self.res_attrs)
        if self.is_declaration:
            if self.linkage.linkage.data not in ("external", "extern_weak"):
                raise VerifyException(
                    "external functions must have 'external' or 'extern_weak' linkage"
                )
            return
        if self.linkage.linkage.data == "common":
            raise VerifyException("functions cannot have 'common' linkage")
        entry = self.body.blocks[0]
        if len(entry.args) != len(fn.inputs):
            raise VerifyException(
                f"entry block must have {len(fn.inputs)} arguments to match function signature"
            )
        for i, (arg, type) in enumerate(zip(entry.args, fn.inputs)):
            if arg.type != type:
                raise VerifyException(
                    f"type of entry block argument #{i}('{arg.type}') must match the type "
                    f"of the corresponding argument in function signature('{type}')"
                )


def _parse_arguments(
    parser: Parser,
) -> tuple[list[Parser.Argument | Attribute], list[dict[str, Attribute]], bool]:
    """``(%a: T {attrs}, ...)`` or ``(T {attrs}, ...)``, maybe ending in ``...``."""
    args: list[Parser.Argument | Attribute] = []
    attrs: list[dict[str, Attribute]] = []
    variadic = False
    parser.parse_punctuation("(")
    if parser.parse_optional_punctuation(")") is not None:
        return args, attrs, variadic
    while True:
        if parser.parse_optional_punctuation("...") is not None:
            variadic = True
            parser.parse_punctuation(")")
            return args, attrs, variadic
        arg = parser.parse_optional_argument()
        args.append(arg if arg is not None else parser.parse_type())
        attrs.append(parser.parse_optional_attr_dict())
        if (loc := parser.parse_optional_location()) is not None and arg is not None:
            arg.location = loc
        if parser.parse_optional_punctuation(")") is not None:
            return args, attrs, variadic
        parser.parse_punctuation(",")


@irdl_op_definition
class GlobalOp(IRDLOperation):
    """``llvm.mlir.global internal constant @g(42 : i32) {addr_space = 0 : i32} : i32``,
    or with an initializer region instead of a value."""

    name = "llvm.mlir.global"
    initializer = region_def()
    global_type = prop_def(AnyAttr())
    sym_name = prop_def(StringAttr)
    linkage = prop_def(LinkageAttr, default_value=LinkageAttr("external"))
    addr_space = prop_def(IntegerAttr, default_value=IntegerAttr(0, 32))
    visibility_ = prop_def(IntegerAttr, default_value=i64_enum(0))
    tls_mode = opt_prop_def(IntegerAttr)
    unnamed_addr = opt_prop_def(IntegerAttr)
    constant = opt_prop_def(UnitAttr)
    value = opt_prop_def(AnyAttr())
    dso_local = opt_prop_def(UnitAttr)
    alignment = opt_prop_def(IntegerAttr)
    section = opt_prop_def(StringAttr)
    comdat = opt_prop_def(AnyAttr())
    dbg_exprs = opt_prop_def(AnyAttr())
    externally_initialized = opt_prop_def(UnitAttr)
    target_specific_attrs = opt_prop_def(AnyAttr())
    traits = traits_def(UpstreamSymbol())

    def __init__(
        self,
        type: Attribute,
        name: str,
        *,
        linkage: str = "internal",
        value: Attribute | None = None,
        constant: bool = False,
        alignment: int | None = None,
        addr_space: int = 0,
        initializer: Region | None = None,
    ) -> None:
        props: dict[str, Attribute] = {
            "global_type": type,
            "sym_name": StringAttr(name),
            "linkage": LinkageAttr(linkage),
            "addr_space": IntegerAttr(addr_space, 32),
            "tls_mode": i64_enum(0),
            "unnamed_addr": i64_enum(0),
        }
        if value is not None:
            props["value"] = value
        if constant:
            props["constant"] = UnitAttr()
        props |= alignment_property(alignment)
        super().__init__(regions=[initializer or Region()], properties=props)

    @classmethod
    def parse(cls, parser: Parser) -> GlobalOp:
        props: dict[str, Attribute] = {}
        props["linkage"] = LinkageAttr(parser.parse_optional_keyword_in(LINKAGES) or "external")
        props["visibility_"] = _keyword(parser, VISIBILITIES, 0)
        props["tls_mode"] = _keyword(parser, TLS_MODES, 0)
        props["unnamed_addr"] = _keyword(parser, UNNAMED_ADDRS, 0)
        if parser.parse_optional_keyword("constant") is not None:
            props["constant"] = UnitAttr()
        props["sym_name"] = parser.parse_symbol_name()
        parser.parse_punctuation("(")
        if (value := parser.parse_optional_attribute()) is not None:
            props["value"] = value
        parser.parse_punctuation(")")
        extra, attrs = split_attr_dict(cls, parser.parse_optional_attr_dict())
        props |= extra
        at = parser.pos
        if parser.parse_optional_punctuation(":") is not None:
            props["global_type"] = parser.parse_type()
        elif isinstance(value, StringAttr):
            props["global_type"] = LLVMArrayType(len(value.data.encode("latin-1", "replace")), i8)
        else:
            parser.raise_error("type can only be omitted for string globals", at)
        region = parser.parse_optional_region([])
        props.setdefault("addr_space", IntegerAttr(0, 32))
        return cls.create(properties=props, attributes=attrs, regions=[region or Region()])

    def print(self, printer: Printer) -> None:
        assert isinstance(self.linkage, LinkageAttr)
        printer.print_string(f" {self.linkage.linkage.data} ")
        if visibility := _int(self.visibility_):
            printer.print_string(_VISIBILITY_NAMES[visibility] + " ")
        if _int(self.tls_mode):
            printer.print_string("thread_local ")
        if unnamed := _int(self.unnamed_addr):
            printer.print_string(_UNNAMED_ADDR_NAMES[unnamed] + " ")
        if self.constant is not None:
            printer.print_string("constant ")
        printer.print_symbol_name(self.sym_name.data)
        printer.print_string("(")
        if self.value is not None:
            printer.print_attribute(self.value)
        printer.print_string(")")
        elided = ("sym_name", "global_type", "constant", "value", "linkage", "unnamed_addr",
                  "tls_mode", "visibility_", "comdat")  # fmt: skip
        print_attr_dict(printer, self, elided, skip_defaults=False)
        if isinstance(self.value, StringAttr):
            return
        printer.print_string(" : ")
        printer.print_attribute(self.global_type)
        if self.initializer.blocks:
            printer.print_string(" ")
            printer.print_region(self.initializer, print_entry_block_args=False)

    def verify_(self) -> None:
        if self.value is not None and self.initializer.blocks:
            raise VerifyException("cannot have both initializer value and region")
        if isinstance(self.global_type, (LLVMVoidType, LLVMFunctionType)):
            raise VerifyException("expects type to be a valid element type for an LLVM global")
        if self.alignment is not None:
            value = self.alignment.value.data
            if value <= 0 or value & (value - 1):  # a negative one is a huge uint64
                raise VerifyException("alignment attribute is not a power of 2")
        if self.initializer.blocks:
            terminator = self.initializer.blocks[0].last_op
            if terminator is None or terminator.name != "llvm.return" or not terminator.operands:
                raise VerifyException("initializer region must end in 'llvm.return' with a value")
            if terminator.operands[0].type != self.global_type:
                raise VerifyException(
                    f"initializer region type '{terminator.operands[0].type}' does not "
                    f"match global type '{self.global_type}'"
                )


SYMBOL_OPS: Sequence[type[IRDLOperation]] = [FuncOp, GlobalOp]
