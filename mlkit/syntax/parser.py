"""Parsing MLIR text into located IR.

xDSL's parser leaves every op and block argument at ``loc(unknown)``;
upstream gives each op the file:line:col where it starts, and each block
argument that of its name, which is what diagnostics and
``--mlir-print-debuginfo`` need. :class:`LocatedParser` adds that.

Dense resources (``dense_resource<key>`` with the data in the file's
``{-# dialect_resources: {builtin: {key: "0x..."}} #-}``, as torch-mlir writes
weights) are read into plain ``dense<...>`` attributes: xDSL keeps blobs in the
process-wide builtin dialect, where a key seen in an earlier parse gets renamed
and its data lost, and nothing after the parser reads them.
"""

from __future__ import annotations

import bisect
import math
import re
import struct
from collections.abc import Sequence
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import AnyFloat, FileLineColLoc, FloatAttr, IntAttr, ModuleOp, StringAttr
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr
from xdsl.dialects.builtin import DenseResourceAttr, IndexType, IntegerType, UnknownLoc
from xdsl.dialects.builtin import AffineMapAttr, MemRefType, NoneAttr, UnregisteredOp
from xdsl.ir.affine import AffineMap
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.parser import Parser
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRTokenKind
from xdsl.utils.exceptions import MultipleSpansParseError, ParseError

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity, SourceLoc
from mlkit.diagnostics.locations import source_loc
from mlkit.diagnostics.verifier import first_line
from mlkit.syntax import affine_errors  # noqa: F401 - upstream's affine_map/affine_set errors
from mlkit.syntax.lexer import LinearLexer
from mlkit.syntax.parse_errors import raised_by_core, upstream_parse_error
from mlkit.syntax.ssa_checks import SSANameChecks
from mlkit.syntax.wide_floats import is_wide_float, wide_float_from_bits


INT64_MAX = (1 << 63) - 1
UINT32_MAX = (1 << 32) - 1
MAX_INTEGER_WIDTH = (1 << 24) - 1  # upstream's IntegerType::kMaxWidth
_INTEGER_TYPE = re.compile(r"[su]?i([0-9]+)\Z")
_DIMENSION_TOKENS = (MLIRTokenKind.INTEGER_LIT, MLIRTokenKind.QUESTION)


class LineIndex:
    """Maps character offsets of one buffer to 1-based line and column."""

    def __init__(self, text: str) -> None:
        self._starts = [0]
        pos = text.find("\n")
        while pos != -1:
            self._starts.append(pos + 1)
            pos = text.find("\n", pos + 1)

    def line_col(self, offset: int) -> tuple[int, int]:
        line = bisect.bisect_right(self._starts, offset)
        return line, offset - self._starts[line - 1] + 1


def float_from_bits(bits: int, type: Any) -> float:
    """The value of an IEEE (or bfloat16) bit pattern of ``type``'s width."""
    width = type.bitwidth
    if type.name == "bf16":
        return struct.unpack("<f", struct.pack("<I", bits << 16))[0]
    fmt = {16: ("<e", "<H"), 32: ("<f", "<I"), 64: ("<d", "<Q")}.get(width)
    if fmt is None:
        raise ValueError(f"no bit-pattern reading for {type}")
    return struct.unpack(fmt[0], struct.pack(fmt[1], bits))[0]


class _BitsElement(Parser._TensorLiteralElement):
    """A hexadecimal literal in a dense float attribute: upstream reads it as
    the element's bit pattern (``dense<0x7F800000> : vector<4xf32>`` is +inf),
    where xDSL would convert the integer's value."""

    def to_float(self, parser: Any) -> float:
        raise AssertionError("a bit pattern needs the element type")

    def to_type(self, parser: Any, type: Any) -> Any:
        if not isinstance(type, AnyFloat):
            return super().to_type(parser, type)
        bits = int(self.value)
        if bits < 0:
            parser.raise_error(
                "hexadecimal float literal should not have a leading minus", at_position=self.span
            )
        if bits >= 1 << type.bitwidth:
            parser.raise_error(
                f"hexadecimal float constant out of range for type {type}", at_position=self.span
            )
        try:
            return float_from_bits(bits, type)
        except ValueError as exc:
            parser.raise_error(str(exc), at_position=self.span)


class LocatedParser(SSANameChecks, Parser):
    """An xDSL parser that stamps each parsed op with its source location
    (and reports SSA name misuse as upstream does: :class:`SSANameChecks`)."""

    def __init__(self, ctx: Context, text: str, name: str) -> None:
        # xDSL's constructor lexes its first token with xDSL's lexer, whose string
        # regex backtracks exponentially; start it on nothing, then swap the lexer
        super().__init__(ctx, "", name)
        self._parser_state = ParserState(LinearLexer(Input(text, name)))
        self.filename = name
        self._index = LineIndex(text)
        self._file_attr = StringAttr(name)
        self.op_starts: list[int] = []
        self._custom_names: list[tuple[str, int]] = []
        """(name, offset) of the custom-form ops being parsed, innermost last."""
        self.text_length = len(text)
        self.resource_blobs: dict[str, bytes] = {}
        """The builtin dialect's resources of this text: key -> data (after the
        alignment word)."""

    def loc_at(self, offset: int) -> SourceLoc:
        line, col = self._index.line_col(offset)
        return SourceLoc(self.filename, line, col)

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        self.op_starts.append(start)
        depth = len(self._custom_names)
        try:
            op = super().parse_operation()
        except ParseError as exc:
            # the innermost op claims the error: its name when its custom form
            # was being parsed (upstream's ``custom op 'NAME'`` prefix)
            if not hasattr(exc, CUSTOM_OP):
                named = self._custom_names[depth:]
                inside = bool(named) and exc.span.start >= named[0][1]
                setattr(exc, CUSTOM_OP, named[0][0] if inside else None)
            raise
        finally:
            del self._custom_names[depth:]
        self.op_starts.pop()
        if isinstance(op.location, UnknownLoc):
            line, col = self._index.line_col(start)
            op.location = FileLineColLoc(self._file_attr, IntAttr(line), IntAttr(col))
        return op

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        # upstream locates a block argument where its name is written
        for value in values:
            if type(value) is BlockArgument and isinstance(value.location, UnknownLoc):
                line, col = self._index.line_col(span.start)
                value.location = FileLineColLoc(self._file_attr, IntAttr(line), IntAttr(col))
        super()._register_ssa_definition(name, values, span)

    def parse_optional_region(self, arguments: Sequence[Parser.Argument] | None = None) -> Any:
        if arguments is None or arguments:
            return super().parse_optional_region(arguments)
        # no named arguments (``func.func @f() { ^bb0: ...``): upstream refuses
        # an entry-block label only where there are some
        region = super().parse_optional_region(None)
        if region is not None and not region.blocks:
            region.add_block(Block())  # ``{}``: one empty entry block, as with arguments
        return region

    def _get_op_by_name(self, name: str) -> type[Operation]:
        # the op name, as upstream points at it, not at the token after it
        at = self._current_token.span.start
        content = self.lexer.input.content
        found = content.rfind(name, 0, at)
        generic = found > 0 and content[found - 1] == '"'
        if not generic and _INTEGER_TYPE.match(name):  # a type token, not an op name
            self.raise_error("expected operation name in quotes", max(found, 0))
        op_type = self.ctx.get_optional_op(name, dialect_stack=self._parser_state.dialect_stack)
        # an unregistered op has only the generic form, also where it is allowed
        if op_type is not None and not (generic is False and issubclass(op_type, UnregisteredOp)):
            if not generic:
                self._custom_names.append((op_type.name, max(found, 0)))
            return op_type
        if generic:
            found -= 1
        self.raise_error(self._unknown_op_message(name, generic), found if found >= 0 else at)

    def _unknown_op_message(self, name: str, generic: bool) -> str:
        """Upstream's words for an op name no dialect defines."""
        dialect, dot, _ = name.partition(".")
        known_dialect = bool(dot) and dialect in self.ctx.registered_dialect_names
        if generic:
            if known_dialect:
                return (
                    f"unregistered operation '{name}' found in dialect ('{dialect}') that "
                    "does not allow unknown operations"
                )
            return (
                "operation being parsed with an unregistered dialect. If this is intended, "
                "please use -allow-unregistered-dialect with the MLIR tool used"
            )
        if not dot:
            stack = self._parser_state.dialect_stack
            default = stack[-1] if stack else "builtin"
            return f"custom op '{name}' is unknown (tried '{default}.{name}' as well)"
        if known_dialect:
            return f"custom op '{name}' is unknown"
        return f"Dialect `{dialect}' not found for custom op '{name}'"

    def _parse_tensor_literal_element(self) -> Parser._TensorLiteralElement:
        token = self._current_token
        element = super()._parse_tensor_literal_element()
        if token.text[:2] in ("0x", "0X") and isinstance(element.value, int):
            return _BitsElement(element.is_negative, element.value, element.span)
        return element

    def parse_dense_int_or_fp_elements_attr(self, type: Any) -> Any:
        # xDSL checks the literal against its type after parsing the type, so its
        # errors point past the attribute; upstream points at the literal.
        start = self._current_token.span.start
        keyword = self.lexer.input.content.rfind("dense", 0, start)
        try:
            return super().parse_dense_int_or_fp_elements_attr(type)
        except ParseError as exc:
            if "dense literal" in exc.msg and exc.span.start > start:
                self.raise_error(exc.msg, keyword if keyword >= 0 else start)
            raise

    def parse_shape_dimension(self, allow_dynamic: bool = True) -> int:
        # xDSL keeps any Python int; upstream's dimensions are int64
        token = self._current_token
        if token.kind is MLIRTokenKind.INTEGER_LIT and token.text[:2] not in ("0x", "0X"):
            if int(token.text) > INT64_MAX:
                self.raise_error("invalid dimension", token.span)
        return super().parse_shape_dimension(allow_dynamic)

    def _parse_memref_attrs(self) -> Any:
        """xDSL's, with an identity layout map dropped, as upstream's
        ``MemRefType::get`` drops it (``memref<4xf32, affine_map<(d0) -> (d0)>>``
        is ``memref<4xf32>``)."""
        parsed = super()._parse_memref_attrs()
        layout = getattr(parsed, "layout", None)
        if isinstance(parsed, MemRefType) and isinstance(layout, AffineMapAttr):
            rank = len(parsed.shape)
            if layout.data == AffineMap.identity(rank):
                return MemRefType(
                    parsed.element_type, parsed.get_shape(), NoneAttr(), parsed.memory_space
                )
        return parsed

    def parse_dimension_list(self) -> list[int]:
        """xDSL's, also where a space follows the ``x`` (``tensor<42 x i32>``):
        xDSL steps back one character from the element type to keep the last
        ``x`` for the caller, which then lands on the space."""
        dims: list[int] = []
        if self._current_token.kind not in _DIMENSION_TOKENS:
            return dims
        dims.append(self.parse_shape_dimension())
        while True:
            delimiter = self._current_token.span.start
            if self._parse_optional_shape_delimiter() is None:
                return dims
            if self._current_token.kind not in _DIMENSION_TOKENS:
                self._resume_from(delimiter)  # the `x` before the element type
                return dims
            dims.append(self.parse_shape_dimension())

    def _parse_optional_integer_or_float_type(self) -> Any:
        # xDSL builds IntegerType(99999999); upstream caps widths at 2^24 - 1
        token = self._current_token
        if token.kind is MLIRTokenKind.BARE_IDENT:
            match = _INTEGER_TYPE.match(token.text)
            if match is not None:
                width = int(match.group(1))
                if width > UINT32_MAX:
                    self.raise_error("invalid integer width", token.span)
                if width > MAX_INTEGER_WIDTH:
                    self.raise_error(
                        f"integer bitwidth is limited to {MAX_INTEGER_WIDTH} bits", token.span
                    )
        return super()._parse_optional_integer_or_float_type()

    def parse_optional_builtin_int_or_float_attr(self) -> Any:
        # xDSL has no struct format for f80 and f128, so their bit patterns fail
        token = self._current_token
        try:
            attr = super().parse_optional_builtin_int_or_float_attr()
        except NotImplementedError:
            if token.kind is not MLIRTokenKind.INTEGER_LIT:
                raise
        else:
            if isinstance(attr, FloatAttr) and is_wide_float(attr.type):
                if math.isinf(attr.value.data):  # a decimal literal past f64's range
                    self.raise_error(
                        f"{attr.type} constant is out of the range mlkit holds (f64)", token.span
                    )
            return attr
        self._resume_from(token.span.start)
        bits = self._consume_token(MLIRTokenKind.INTEGER_LIT).kind.get_int_value(token.span)
        type = self._parse_attribute_type()
        if not is_wide_float(type):
            self.raise_error(f"no bit-pattern reading for {type}", token.span)
        if bits >= 1 << type.bitwidth:
            self.raise_error(f"hexadecimal float constant out of range for type {type}", token.span)
        value = wide_float_from_bits(bits, type)
        if value is None:
            self.raise_error(
                f"hexadecimal {type} constant {token.text} is not exactly representable: "
                "mlkit holds float constants as f64",
                token.span,
            )
        return FloatAttr(value, type)

    def _parse_dialect_resource_handle(self, dialect_name: str, interface: Any) -> str:
        if dialect_name != "builtin":
            return super()._parse_dialect_resource_handle(dialect_name, interface)
        return self.parse_identifier(context_msg=" for resource handle")

    def _parse_resource(self, dialect_name: str, interface: Any) -> None:
        if dialect_name != "builtin":
            return super()._parse_resource(dialect_name, interface)
        key = self.parse_identifier(context_msg=" for resource handle")
        self._parse_token(MLIRTokenKind.COLON, "expected `:`")
        start = self.current_offset()
        value = self.parse_str_literal()
        try:
            blob = bytes.fromhex(value[2:]) if value.startswith("0x") else None
        except ValueError:
            blob = None
        if blob is None:
            self.raise_error(f"expected hex string blob for key '{key}'", start)
        if len(blob) < 4:
            self.raise_error(
                f"expected hex string blob for key '{key}' to encode alignment in first 4 bytes",
                start,
            )
        alignment = int.from_bytes(blob[:4], "little")
        if alignment == 0 or alignment & (alignment - 1):
            self.raise_error(
                f"expected hex string blob for key '{key}' to encode alignment in first 4 "
                f"bytes, but got non-power-of-2 value: {alignment}",
                start,
            )
        self.resource_blobs[key] = blob[4:]

    def results_named(self) -> bool | None:
        """Whether the custom-form op being parsed has result names bound
        (``%t = gpu.wait async``), as upstream's ``OpAsmParser::getNumResults``
        tells; None outside a custom form."""
        if not self._custom_names or not self.op_starts:
            return None
        name_at = self._custom_names[-1][1]
        return "%" in self.lexer.input.content[self.op_starts[-1] : name_at]

    def current_offset(self) -> int:
        return self._current_token.span.start

    def failing_op_offset(self) -> int:
        """Start of the innermost op being parsed: where errors raised by eager
        attribute checks (out-of-range literals, dense sizes) belong."""
        return self.op_starts[-1] if self.op_starts else self.current_offset()


def parse_module(
    ctx: Context, text: str, filename: str, *, implicit_module: bool = True
) -> Operation:
    """Parse ``text`` into its top-level op, raising :class:`DiagnosticError`
    with a located message on any bad input.

    ``filename`` is the name error locations use; with ``implicit_module``, top-level
    ops not in a ``builtin.module`` are wrapped in one and blank text is an empty
    module."""
    if implicit_module and _is_blank(text):
        return ModuleOp([])  # as upstream: an empty buffer is an empty module
    try:
        parser = LocatedParser(ctx, text, filename)
    except ParseError as exc:  # the constructor lexes the first token
        line, col = LineIndex(text).line_col(exc.span.start)
        raise DiagnosticError.at(SourceLoc(filename, line, col), exc.msg.strip()) from None
    try:
        module = parser.parse_module(allow_implicit_module=True)
    except MultipleSpansParseError as exc:
        notes = [
            Diagnostic(Severity.NOTE, msg or exc.ref_text or "see", parser.loc_at(span.start))
            for span, msg in exc.refs
        ]
        at = exc.span.start
        if at >= len(text) and exc.refs:  # point at the first offending use, not at EOF
            at = exc.refs[0][0].start
        msg, at = _upstream(exc, at, text)
        diag = _span_diag(parser, at, msg)
        diag.notes.extend(notes)
        raise DiagnosticError(diag) from None
    except ParseError as exc:
        at = exc.span.start
        msg = exc.msg
        if msg.startswith(UNDEFINED_VALUES):  # xDSL reports them at the end of the input
            at = _first_use(text, msg, at)
            msg = "use of undeclared SSA value name"
        elif at < len(text) or msg.strip():
            msg, at = _upstream(exc, at, text)
        raise DiagnosticError(_span_diag(parser, at, msg)) from None
    except RecursionError:
        raise DiagnosticError.at(
            parser.loc_at(parser.current_offset()), "nesting too deep to parse"
        ) from None
    except (DiagnosticError, KeyboardInterrupt):
        raise
    except Exception as exc:  # attribute constructors verify eagerly and raise plain errors
        message = first_line(str(exc), type(exc).__name__)
        raise DiagnosticError.at(parser.loc_at(parser.failing_op_offset()), message) from None
    if parser.resource_blobs:
        _read_dense_resources(module, parser.resource_blobs)
    wrapped = isinstance(module, ModuleOp) and isinstance(module.location, UnknownLoc)
    if not implicit_module and wrapped:
        return _single_top_level_op(parser, module)
    if wrapped:
        first = text.find(next((c for c in text if not c.isspace()), "\0"))
        line, col = parser._index.line_col(max(first, 0))  # pyright: ignore[reportPrivateUsage]
        module.location = FileLineColLoc(StringAttr(filename), IntAttr(line), IntAttr(col))
    return module


CUSTOM_OP = "mlkit_custom_op"
"""The attribute :meth:`LocatedParser.parse_operation` sets on a parse error:
the custom-form op whose parsing raised it, or None."""


def _upstream(exc: ParseError, at: int, text: str) -> tuple[str, int]:
    custom_op = getattr(exc, CUSTOM_OP, None)
    return upstream_parse_error(exc.msg, at, text, custom_op, raised_by_core(exc))


def _read_dense_resources(module: Operation, blobs: dict[str, bytes]) -> None:
    """Replace each ``dense_resource`` attribute of an op whose data ``blobs``
    holds by the ``dense`` attribute of that data. Those of other element
    types, or of keys the text does not define, stay."""
    for op in module.walk():
        for table in (op.properties, op.attributes):
            for name, attr in list(table.items()):
                if isinstance(attr, DenseResourceAttr) and attr.resource_handle.data in blobs:
                    dense = _dense_of(attr, blobs[attr.resource_handle.data], op)
                    if dense is not None:
                        table[name] = dense


def _dense_of(attr: DenseResourceAttr, data: bytes, op: Operation) -> Any:
    type = attr.type
    shape = type.get_shape()
    element = getattr(type, "element_type", None)
    if not isinstance(element, (IntegerType, IndexType, AnyFloat)) or any(d < 0 for d in shape):
        return None
    count = math.prod(shape)
    need = count * element.compile_time_size
    if len(data) != need:
        raise DiagnosticError.at(
            source_loc(op.location),
            f"dense_resource<{attr.resource_handle.data}> holds {len(data)} bytes of data, "
            f"but {type} needs {need}",
        )
    return DenseIntOrFPElementsAttr(type, BytesAttr(data))  # type: ignore[arg-type]


def _single_top_level_op(parser: LocatedParser, module: ModuleOp) -> Operation:
    """With --no-implicit-module the input is exactly one op, of any kind."""
    ops = list(module.ops)
    if len(ops) != 1:
        at = ops[1].location if len(ops) > 1 else module.location
        loc = source_loc(at) if len(ops) > 1 else parser.loc_at(0)
        raise DiagnosticError.at(
            loc,
            "source must contain a single top-level operation if "
            "--no-implicit-module is specified",
        )
    ops[0].detach()
    return ops[0]


def _is_blank(text: str) -> bool:
    return all(not line.split("//", 1)[0].strip() for line in text.split("\n"))


UNDEFINED_VALUES = "values used but not defined"


def _first_use(text: str, msg: str, default: int) -> int:
    """Offset of the first use of the first undefined value named in ``msg``."""
    names = re.findall(r"%[\w$.-]+", msg)
    if not names:
        return default
    pattern = re.compile(re.escape(names[0]) + r"(?![\w$.-])")
    offset = 0
    for line in text.split("\n"):
        code = line.split("//", 1)[0]  # uses inside comments do not count
        if (m := pattern.search(code)) is not None:
            return offset + m.start()
        offset += len(line) + 1
    return default


def _span_diag(parser: LocatedParser, offset: int, msg: str) -> Diagnostic:
    if offset >= parser.text_length and (not msg.strip() or msg[0].isspace()):
        msg = f"unexpected end of input{': ' + msg.strip() if msg.strip() else ''}"
    msg = msg.strip()
    return Diagnostic(Severity.ERROR, msg or "invalid syntax", parser.loc_at(offset))
