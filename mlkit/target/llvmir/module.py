"""Translation of a module in mlkit's llvm dialect to LLVM IR text, as
upstream's ``mlir-translate --mlir-to-llvmir`` does.

Written here rather than by extending xDSL's llvmlite backend: that backend
dispatches on xDSL's own llvm op classes, which mlkit replaces, and builds IR
through ``llvmlite.ir``, which cannot express poison, ``nneg``/``disjoint``,
GEP ``nusw``/``nuw``, ``syncscope``, operand bundles or fast-math flags on
calls. Text is what LLVM reads anyway; :func:`parse_and_verify` then has
LLVM itself check every module before it leaves mlkit.

Unlike upstream, no "Debug Info Version" module flag is written: mlkit emits
no debug info, and with that flag present LLVM's parser verifies the module
itself and aborts the process on a broken one instead of reporting it.

Every llvm dialect op and type is covered. An op of another dialect goes to
the translation that dialect registered (:mod:`mlkit.target.llvmir.interface`);
one without, or a property with no LLVM IR meaning here (TBAA, access
groups, ...), is a located error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, TypeVar

from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.locations import op_loc
from mlkit.dialects import llvm
from mlkit.dialects.llvm import LinkageAttr
from mlkit.target.llvmir.attrs import FUNC_HANDLED_PROPS, function_attrs, function_trailer
from mlkit.target.llvmir.attrs import nth_param_attrs, symbol_name
from mlkit.target.llvmir.function import FunctionTranslation
from mlkit.target.llvmir.initializers import fold_initializer
from mlkit.target.llvmir.intrinsics import IntrinsicTable
from mlkit.target.llvmir.interface import DialectTranslations, FunctionHead
from mlkit.target.llvmir.interface import LLVMTranslationDialectInterface, default_translations
from mlkit.target.llvmir.interface import translation_of
from mlkit.target.llvmir.ops import check_props
from mlkit.target.llvmir.types import ConstantBuilder, TranslationFailure, TypeTable, identifier
from mlkit.target.llvmir.types import quote_bytes

if TYPE_CHECKING:
    from llvmlite.binding import ModuleRef

T = TypeVar("T")

MODULE_ID = "LLVMDialectModule"
_VISIBILITY = {1: "hidden", 2: "protected"}
_UNNAMED_ADDR = {1: "local_unnamed_addr", 2: "unnamed_addr"}


def translate_module(module: Operation, translations: DialectTranslations | None = None) -> str:
    """LLVM IR text of ``module``; a located :class:`DiagnosticError` if some
    op cannot be translated. Ops of dialects other than llvm go to
    ``translations`` (by default, those registered). The text is not yet
    checked by LLVM."""
    return ModuleTranslation(module, translations).translate()


def parse_and_verify(text: str, module: Operation) -> ModuleRef:
    """Have LLVM parse and verify ``text``; its complaint becomes an error at
    the function or global it is about, else at ``module``."""
    import llvmlite.binding as llvm_binding

    try:
        parsed = llvm_binding.parse_assembly(text)
        parsed.verify()
    except RuntimeError as exc:
        culprit = _blame(str(exc), text, module)
        message = " ".join(str(exc).split())
        raise DiagnosticError.at(
            op_loc(culprit), f"LLVM rejected the translated module: {message}"
        ) from None
    return parsed


def _blame(message: str, text: str, module: Operation) -> Operation:
    """The symbol op whose translation holds the line LLVM's message points at
    (``<string>:LINE:COL`` of a parse error, or the quoted instruction)."""
    import re

    lines = text.split("\n")
    found = re.search(r"<string>:(\d+):", message)
    index = int(found.group(1)) - 1 if found else None
    if index is None:
        quoted = [q.strip() for q in message.split("\n")[1:] if q.strip()]
        index = next((i for i, line in enumerate(lines) for q in quoted if line.strip() == q), None)
    if index is None or not isinstance(module, ModuleOp):
        return module
    for line in reversed(lines[: index + 1]):
        symbol = re.match(
            r'(?:define|declare)\b[^@]*(@"[^"]*"|@[-\w$.]+)\(|(@"[^"]*"|@[-\w$.]+) = ', line
        )
        if symbol:
            wanted = symbol.group(1) or symbol.group(2)
            for op in module.ops:
                name = op.properties.get("sym_name")
                if isinstance(name, StringAttr) and identifier("@", name.data) == wanted:
                    return op
            break
    return module


def translate_and_verify(module: Operation) -> ModuleRef:
    """The module as an LLVM module that LLVM has parsed and verified."""
    return parse_and_verify(translate_module(module), module)


class ModuleTranslation:
    """Translates one ``builtin.module`` of llvm dialect ops, handing ops and
    attributes of other dialects to their registered translations."""

    def __init__(self, module: Operation, translations: DialectTranslations | None = None) -> None:
        self.module = module
        self.types = TypeTable()
        self.constants = ConstantBuilder(self.types)
        self.symbols: dict[str, Operation] = {}
        self.intrinsics = IntrinsicTable(self.types, self.symbols)
        self._translations = translations
        self._dialects: dict[str, LLVMTranslationDialectInterface | None] = {}

    def dialect_translation(self, dialect: str) -> LLVMTranslationDialectInterface | None:
        """This module's translation of ``dialect``'s ops, made on first use."""
        if dialect not in self._dialects:
            if self._translations is None:  # a module of llvm ops alone never needs the registry
                self._translations = default_translations()
            cls = self._translations.lookup(dialect)
            self._dialects[dialect] = cls(self) if cls is not None else None
        return self._dialects[dialect]

    # -- errors -------------------------------------------------------------------------
    def error(self, op: Operation, reason: str) -> DiagnosticError:
        return DiagnosticError.at(op_loc(op), f"cannot translate '{op.name}' to LLVM IR: {reason}")

    def guarded(self, op: Operation, work: Callable[[], T]) -> T:
        """Run ``work``, turning a :class:`TranslationFailure` into an error at ``op``."""
        try:
            return work()
        except TranslationFailure as exc:
            raise self.error(op, str(exc)) from None

    # -- the module -----------------------------------------------------------------------
    def translate(self) -> str:
        if not isinstance(self.module, ModuleOp):
            raise self.error(self.module, "expected a 'builtin.module'")
        self._prepare()
        ops = list(self.module.ops)
        foreign = [op for op in ops if op.dialect_name() != "llvm"]
        for op in ops:
            if op.dialect_name() != "llvm":
                self.guarded(op, lambda op=op: translation_of(self, op).check_module_op(op))
            elif isinstance(op, (llvm.GlobalCtorsOp, llvm.GlobalDtorsOp)):
                continue
            elif not isinstance(op, (llvm.FuncOp, llvm.GlobalOp)):
                raise self.error(op, "expected only functions and globals at module level")
            name = op.properties["sym_name"]
            assert isinstance(name, StringAttr)
            self.symbols[name.data] = op
        body: list[str] = []
        for op in ops:
            if isinstance(op, llvm.GlobalOp):
                body.append(self.guarded(op, lambda op=op: self._global(op)))
            elif isinstance(op, (llvm.GlobalCtorsOp, llvm.GlobalDtorsOp)):
                body.append(_structors(op))
        for op in foreign:
            body += self.guarded(op, lambda op=op: translation_of(self, op).convert_module_op(op))
        for op in ops:
            if isinstance(op, llvm.FuncOp):
                body.append("")
                body += self._function(op)
        for translation in self._dialects.values():
            trailer = translation.trailer() if translation is not None else []
            body += ["", *trailer] if trailer else []
        for declaration in self.intrinsics.declarations():
            body += ["", declaration]
        head = [f"; ModuleID = '{MODULE_ID}'", f'source_filename = "{MODULE_ID}"']
        head += self._target_lines()
        types = self.types.definitions()
        return "\n".join([*head, *([""] + types if types else []), "", *body]) + "\n"

    def _prepare(self) -> None:
        """Let the translations that rewrite their ops into llvm ops do so,
        on a copy of the module."""
        dialects = {op.dialect_name() for op in self.module.walk()} - {"llvm", "builtin"}
        copied = False
        for dialect in sorted(dialects):
            translation = self.dialect_translation(dialect)
            if translation is None or not translation.rewrites_module:
                continue
            if not copied:
                self.module, copied = self.module.clone(), True
            assert isinstance(self.module, ModuleOp)
            translation.prepare_module(self.module)

    def _target_lines(self) -> list[str]:
        lines = []
        attrs = self.module.attributes
        for key, word in (("llvm.data_layout", "datalayout"), ("llvm.target_triple", "triple")):
            value = attrs.get(key)
            if isinstance(value, StringAttr) and value.data:
                lines.append(f'target {word} = "{quote_bytes(value.data.encode())}"')
        module_asm = attrs.get("llvm.module_asm")
        if isinstance(module_asm, ArrayAttr):
            lines += [
                f'module asm "{quote_bytes(s.data.encode())}"'
                for s in module_asm.data
                if isinstance(s, StringAttr)
            ]
        return lines

    # -- symbols ------------------------------------------------------------------------------
    def variadic_callee_type(self, callee: SymbolRefAttr) -> llvm.LLVMFunctionType | None:
        """The type of a variadic callee, which a call must spell out."""
        target = self.symbols.get(callee.root_reference.data)
        if isinstance(target, llvm.FuncOp):
            fn = target.function_type
            if isinstance(fn, llvm.LLVMFunctionType) and fn.is_variadic:
                return fn
        return None

    # -- globals ------------------------------------------------------------------------------
    def _global(self, op: llvm.GlobalOp) -> str:
        check_props(op, _GLOBAL_PROPS)
        type = op.global_type
        linkage = op.linkage.linkage.data  # type: ignore[union-attr]
        if op.value is not None:
            init: str | None = self.constants.value(op.value, type)
        elif op.initializer.blocks:
            init = fold_initializer(self, op)
        else:
            init = None if linkage in ("external", "extern_weak") else "undef"
        words = [identifier("@", op.sym_name.data), "="]
        if init is None or linkage != "external":
            words.append(linkage)
        words += self._common_words(op)
        if _int(op.tls_mode):
            words.append("thread_local")
        if unnamed := _UNNAMED_ADDR.get(_int(op.unnamed_addr)):
            words.append(unnamed)
        if space := _int(op.addr_space):
            words.append(f"addrspace({space})")
        if op.externally_initialized is not None:
            words.append("externally_initialized")
        words.append("constant" if op.constant is not None else "global")
        words.append(self.types.spell(type))
        if init is not None:
            words.append(init)
        text = " ".join(words)
        if isinstance(op.section, StringAttr):
            text += f', section "{quote_bytes(op.section.data.encode())}"'
        if isinstance(op.alignment, IntegerAttr):
            text += f", align {op.alignment.value.data}"
        return text

    def _common_words(self, op: Operation) -> list[str]:
        """``dso_local`` and the visibility; a symbol with local linkage has
        default visibility in LLVM IR, so its visibility is left out."""
        words = []
        if op.properties.get("dso_local") is not None:
            words.append("dso_local")
        local = op.properties["linkage"] in (LinkageAttr("private"), LinkageAttr("internal"))
        if (visibility := _VISIBILITY.get(_int(op.properties.get("visibility_")))) and not local:
            words.append(visibility)
        return words

    # -- functions ------------------------------------------------------------------------------
    def _function(self, op: llvm.FuncOp) -> list[str]:
        head = self.guarded(op, lambda: self._function_head(op))
        if op.is_declaration:
            return [f"declare {head}"]
        body = FunctionTranslation(self, op).translate()
        return [f"define {head} {{", *body, "}"]

    def _function_head(self, op: llvm.FuncOp) -> str:
        check_props(op, FUNC_HANDLED_PROPS)
        fn = op.function_type
        assert isinstance(fn, llvm.LLVMFunctionType)
        words = []
        linkage = op.linkage.linkage.data  # type: ignore[union-attr]
        if linkage != "external":
            words.append(linkage)
        words += self._common_words(op)
        head = self._amended_head(op)
        if head.calling_convention is not None:
            words.append(head.calling_convention)
        words += nth_param_attrs(op.res_attrs, 0, self.types)
        words.append(self.types.spell(fn.output))
        params = []
        for index, type in enumerate(fn.inputs):
            parts = [self.types.spell(type), *nth_param_attrs(op.arg_attrs, index, self.types)]
            if not op.is_declaration:
                parts.append(f"%{index}")
            params.append(" ".join(parts))
        if fn.is_variadic:
            params.append("...")
        words.append(f"{identifier('@', op.sym_name.data)}({', '.join(params)})")
        if unnamed := _UNNAMED_ADDR.get(_int(op.unnamed_addr)):
            words.append(unnamed)
        words += function_attrs(op) + head.attributes
        words += function_trailer(op, symbol_name)
        return " ".join(words)

    def _amended_head(self, op: llvm.FuncOp) -> FunctionHead:
        """The calling convention and the attributes the dialects of the
        function's discardable attributes (``nvvm.kernel``) add, as
        upstream's ``amendOperation`` does."""
        cconv = op.CConv.cconv.data  # type: ignore[union-attr]
        head = FunctionHead(None if cconv == "ccc" else cconv)
        dialects = dict.fromkeys(key.split(".", 1)[0] for key in op.attributes if "." in key)
        for dialect in dialects:
            translation = self.dialect_translation(dialect) if dialect != "llvm" else None
            if translation is not None:
                translation.amend_function(op, head)
        return head


def _structors(op: Operation) -> str:
    """``@llvm.global_ctors`` (or ``_dtors``): LLVM's appending array of
    ``{ priority, function, data }``. As upstream's translation does, the data
    pointer is always null (the ``data`` list is checked, not translated)."""
    assert isinstance(op, (llvm.GlobalCtorsOp, llvm.GlobalDtorsOp))
    entry = "{ i32, ptr, ptr }"
    items = [
        f"{entry} {{ i32 {priority.value.data}, ptr {identifier('@', fn.root_reference.data)}, ptr null }}"
        for fn, priority in zip(op.functions().data, op.priorities.data)
    ]
    name = f"@llvm.global_{op.kind()}"
    return f"{name} = appending global [{len(items)} x {entry}] [{', '.join(items)}]"


def _int(attr: Attribute | None) -> int:
    return attr.value.data if isinstance(attr, IntegerAttr) else 0


_GLOBAL_PROPS = frozenset(
    "global_type sym_name linkage addr_space visibility_ tls_mode unnamed_addr constant value "
    "dso_local alignment section externally_initialized".split()
)
