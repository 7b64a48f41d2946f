"""Hand-written syntax of ``gpu.func`` and ``gpu.launch``.

Both ops define their region's entry arguments inside the op's own syntax
(memory attributions; launch ids and sizes), which the declarative format
cannot express. These functions follow upstream's ``GPUFuncOp::parse/print``
and ``LaunchOp::parse/print``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer

if TYPE_CHECKING:
    from mlkit.dialects.gpu.kernel import GPUFuncOp, LaunchOp

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


def _dict_array(dicts: Sequence[dict[str, Attribute]]) -> ArrayAttr[DictionaryAttr] | None:
    """Per-argument attributes as upstream stores them: absent unless any is set."""
    if not any(dicts):
        return None
    return ArrayAttr(DictionaryAttr(d) for d in dicts)


def _parse_typed_args(
    parser: Parser, args: list[Parser.Argument]
) -> list[dict[str, Attribute]]:
    """``(%a : type {attrs}?, ...)``, appended to ``args``."""
    attrs: list[dict[str, Attribute]] = []

    def element() -> None:
        args.append(parser.parse_argument())
        attrs.append(parser.parse_optional_dictionary_attr_dict())

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, element)
    return attrs


def _parse_attributions(
    parser: Parser, keyword: str, args: list[Parser.Argument]
) -> tuple[int, ArrayAttr[DictionaryAttr] | None]:
    if parser.parse_optional_keyword(keyword) is None:
        return 0, None
    attrs = _parse_typed_args(parser, args)
    return len(attrs), _dict_array(attrs)


def _parse_results(parser: Parser) -> tuple[list[Attribute], list[dict[str, Attribute]]]:
    if parser.parse_optional_punctuation("->") is None:
        return [], []
    types: list[Attribute] = []
    attrs: list[dict[str, Attribute]] = []
    if parser.parse_optional_punctuation("(") is None:
        return [parser.parse_type()], [{}]
    if parser.parse_optional_punctuation(")") is not None:
        return [], []

    def element() -> None:
        types.append(parser.parse_type())
        attrs.append(parser.parse_optional_dictionary_attr_dict())

    parser.parse_comma_separated_list(parser.Delimiter.NONE, element)
    parser.parse_punctuation(")")
    return types, attrs


def parse_func(cls: type[GPUFuncOp], parser: Parser) -> GPUFuncOp:
    """``@name(args) (-> results)? workgroup(...)? private(...)? kernel?
    (attributes {...})? region``."""
    name = parser.parse_symbol_name()
    pos = parser.pos
    entry: list[Parser.Argument] = []
    arg_attrs = _parse_typed_args_or_fail(parser, entry, pos)
    inputs = [a.type for a in entry]
    results, res_attrs = _parse_results(parser)
    props: dict[str, Attribute] = {"function_type": FunctionType.from_lists(inputs, results)}
    if (a := _dict_array(arg_attrs)) is not None:
        props["arg_attrs"] = a
    if (r := _dict_array(res_attrs)) is not None:
        props["res_attrs"] = r
    n_workgroup, wg_attrs = _parse_attributions(parser, "workgroup", entry)
    if n_workgroup:
        props["workgroup_attributions"] = IntegerAttr(n_workgroup, i64)
    if wg_attrs is not None:
        props["workgroup_attrib_attrs"] = wg_attrs
    _, private_attrs = _parse_attributions(parser, "private", entry)
    if private_attrs is not None:
        props["private_attrib_attrs"] = private_attrs
    if parser.parse_optional_keyword("kernel") is not None:
        props["kernel"] = UnitAttr()
    attrs: dict[str, Attribute] = {"sym_name": name}
    extra = parser.parse_optional_attr_dict_with_keyword()
    for key, value in (extra.data if extra is not None else {}).items():
        if key in cls.get_irdl_definition().properties:
            props[key] = value  # inherent attributes written in the dictionary
        else:
            attrs[key] = value
    body = parser.parse_region(entry)
    return cls.create(properties=props, attributes=attrs, regions=[body])


def _parse_typed_args_or_fail(
    parser: Parser, entry: list[Parser.Argument], pos: int
) -> list[dict[str, Attribute]]:
    if parser._current_token.text == "(":  # pyright: ignore[reportPrivateUsage]
        probe = parser.pos
        parser.parse_punctuation("(")
        named = parser._current_token.text.startswith("%") or parser._current_token.text == ")"  # pyright: ignore[reportPrivateUsage]
        parser._resume_from(probe)  # pyright: ignore[reportPrivateUsage]
        if not named:
            parser.raise_error("gpu.func requires named arguments", pos)
    return _parse_typed_args(parser, entry)


def _print_dict(printer: Printer, attrs: DictionaryAttr | None) -> None:
    if attrs is not None and attrs.data:
        printer.print_string(" ")
        printer.print_attr_dict(attrs.data)


def _print_attributions(
    printer: Printer,
    keyword: str,
    values: Sequence[BlockArgument],
    attrs: ArrayAttr[DictionaryAttr] | None,
) -> None:
    if not values:
        return
    printer.print_string(f" {keyword}(")

    def element(pair: tuple[int, BlockArgument]) -> None:
        i, v = pair
        printer.print_ssa_value(v)
        printer.print_string(" : ")
        printer.print_attribute(v.type)
        if attrs is not None and i < len(attrs.data):
            _print_dict(printer, attrs.data[i])

    printer.print_list(list(enumerate(values)), element)
    printer.print_string(")")


def print_func(op: GPUFuncOp, printer: Printer) -> None:
    printer.print_string(" ")
    printer.print_symbol_name(op.sym_name.data)
    ftype = op.function_type
    args = op.body.blocks[0].args if op.body.blocks else ()
    arg_attrs = op.arg_attrs.data if op.arg_attrs is not None else None
    printer.print_string("(")

    def arg(pair: tuple[int, BlockArgument]) -> None:
        i, a = pair
        printer.print_block_argument(a, print_type=False)
        printer.print_string(": ")
        printer.print_attribute(a.type)
        if arg_attrs is not None and i < len(arg_attrs):
            _print_dict(printer, arg_attrs[i])

    printer.print_list(list(enumerate(args[: len(ftype.inputs)])), arg)
    printer.print_string(")")
    outputs = ftype.outputs.data
    if outputs:
        printer.print_string(" -> ")
        res_attrs = op.res_attrs.data if op.res_attrs is not None else None
        parens = len(outputs) > 1 or res_attrs is not None
        if parens:
            printer.print_string("(")

        def res(pair: tuple[int, Attribute]) -> None:
            i, t = pair
            printer.print_attribute(t)
            if res_attrs is not None:
                _print_dict(printer, res_attrs[i])

        printer.print_list(list(enumerate(outputs)), res)
        if parens:
            printer.print_string(")")
    _print_attributions(printer, "workgroup", op.workgroup_args(), op.workgroup_attrib_attrs)
    _print_attributions(printer, "private", op.private_args(), op.private_attrib_attrs)
    if op.kernel is not None:
        printer.print_string(" kernel")
    shown = {k: v for k, v in op.attributes.items() if k not in _FUNC_ELIDED}
    shown |= {k: v for k, v in op.properties.items() if k not in _FUNC_ELIDED}
    printer.print_op_attributes(shown, print_keyword=True)
    printer.print_string(" ")
    printer.print_region(op.body, print_entry_block_args=False)


# ---------------------------------------------------------------------------
# gpu.launch
# ---------------------------------------------------------------------------


def _parse_size_assignment(
    parser: Parser,
) -> tuple[list[Parser.UnresolvedArgument], list[Parser.UnresolvedArgument], list[UnresolvedOperand]]:
    """``(%id, %id, %id) in (%size = %v, %size = %v, %size = %v)``."""
    ids = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    if len(ids) != 3:
        parser.raise_error("expected 3 identifiers")
    parser.parse_keyword("in")
    sizes: list[Parser.UnresolvedArgument] = []
    values: list[UnresolvedOperand] = []

    def assignment() -> None:
        sizes.append(parser.parse_argument(expect_type=False))
        parser.parse_punctuation("=")
        values.append(parser.parse_unresolved_operand())

    parser.parse_comma_separated_list(parser.Delimiter.PAREN, assignment)
    if len(sizes) != 3:
        parser.raise_error("expected 3 size assignments")
    return ids, sizes, values


def parse_launch(cls: type[LaunchOp], parser: Parser) -> LaunchOp:
    """Upstream's ``LaunchOp::parse``."""
    index = IndexType()
    is_async = parser.parse_optional_keyword("async") is not None
    deps = parser.parse_optional_comma_separated_list(
        parser.Delimiter.SQUARE, parser.parse_unresolved_operand
    ) or []
    dep_values = [parser.resolve_operand(d, AsyncTokenType()) for d in deps]

    cluster = None
    if parser.parse_optional_keyword("clusters") is not None:
        cluster = _parse_size_assignment(parser)
    parser.parse_keyword("blocks")
    blocks = _parse_size_assignment(parser)
    parser.parse_keyword("threads")
    threads = _parse_size_assignment(parser)

    def resolve(values: Sequence[UnresolvedOperand]) -> list[SSAValue]:
        return [parser.resolve_operand(v, index) for v in values]

    grid, block = resolve(blocks[2]), resolve(threads[2])
    cluster_values = resolve(cluster[2]) if cluster else []
    smem: list[SSAValue] = []
    if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
        smem = [parser.resolve_operand(parser.parse_unresolved_operand(), i32)]

    props: dict[str, Attribute] = {}
    for key in ("module", "function"):
        if parser.parse_optional_keyword(key) is not None:
            parser.parse_punctuation("(")
            props[key] = SymbolRefAttr(parser.parse_symbol_name())
            parser.parse_punctuation(")")

    # region arguments: block ids, thread ids, grid sizes, block sizes,
    # then cluster ids and cluster sizes, all `index`
    unresolved = [*blocks[0], *threads[0], *blocks[1], *threads[1]]
    if cluster:
        unresolved += [*cluster[0], *cluster[1]]
    entry: list[Parser.Argument] = [a.resolve(index) for a in unresolved]
    n_workgroup, _ = _parse_attributions(parser, "workgroup", entry)
    if n_workgroup:
        props["workgroup_attributions"] = IntegerAttr(n_workgroup, i64)
    _parse_attributions(parser, "private", entry)
    body = parser.parse_region(entry)
    attrs = parser.parse_optional_attr_dict()

    operands: list[Any] = [dep_values, *grid, *block]
    operands += [[v] for v in cluster_values] if cluster else [[], [], []]
    operands += [smem, []]
    return cls.build(
        operands=operands,
        result_types=[[AsyncTokenType()] if is_async else []],
        properties=props,
        attributes=attrs,
        regions=[body],
    )


def _print_size_assignment(
    printer: Printer,
    ids: Sequence[BlockArgument],
    sizes: Sequence[BlockArgument],
    values: Sequence[SSAValue],
) -> None:
    printer.print_string("(")
    printer.print_list(ids, printer.print_ssa_value)
    printer.print_string(") in (")

    def assignment(pair: tuple[BlockArgument, SSAValue]) -> None:
        printer.print_ssa_value(pair[0])
        printer.print_string(" = ")
        printer.print_operand(pair[1])

    printer.print_list(list(zip(sizes, values)), assignment)
    printer.print_string(")")


def print_launch(op: LaunchOp, printer: Printer) -> None:
    """Upstream's ``LaunchOp::print``."""
    if op.asyncToken is not None:
        printer.print_string(" async")
        if op.asyncDependencies:
            printer.print_string(" [")
            printer.print_list(op.asyncDependencies, printer.print_operand)
            printer.print_string("]")
    args = op.body.blocks[0].args
    if op.has_cluster_size:
        printer.print_string(" clusters")
        clusters = (op.clusterSizeX, op.clusterSizeY, op.clusterSizeZ)
        _print_size_assignment(printer, args[12:15], args[15:18], clusters)  # pyright: ignore[reportArgumentType]
    printer.print_string(" blocks")
    _print_size_assignment(
        printer, args[0:3], args[6:9], (op.gridSizeX, op.gridSizeY, op.gridSizeZ)
    )
    printer.print_string(" threads")
    _print_size_assignment(
        printer, args[3:6], args[9:12], (op.blockSizeX, op.blockSizeY, op.blockSizeZ)
    )
    if op.dynamicSharedMemorySize is not None:
        printer.print_string(" dynamic_shared_memory_size ")
        printer.print_operand(op.dynamicSharedMemorySize)
    for key in ("module", "function"):
        ref = op.properties.get(key)
        if isinstance(ref, SymbolRefAttr):
            printer.print_string(f" {key}(")
            printer.print_symbol_name(ref.root_reference.data)
            printer.print_string(")")
    first = op.num_config_args
    n_wg = op.num_workgroup_attributions
    _print_attributions(printer, "workgroup", args[first : first + n_wg], None)
    _print_attributions(printer, "private", args[first + n_wg :], None)
    printer.print_string(" ")
    printer.print_region(op.body, print_entry_block_args=False)
    printer.print_op_attributes(op.attributes)


__all__ = ["parse_func", "print_func", "parse_launch", "print_launch"]
