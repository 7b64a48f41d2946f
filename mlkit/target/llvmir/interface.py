"""The per-dialect LLVM IR translation interface, as upstream's
``LLVMTranslationDialectInterface``.

The translator handles the llvm dialect itself. An op of any other dialect,
at module level (``gpu.binary``) or inside a function (``gpu.launch_func``,
``nvvm.*``), goes to the translation its dialect registered; a function's
discardable attributes ``<dialect>.<name>`` (``nvvm.kernel``) let that
dialect's translation amend the function's header, as upstream's
``amendOperation`` does. The translator names no dialect translation: it
looks one up by the op's dialect name (the prefix of its name) in a
:class:`DialectTranslations` table of lazy ``module:attr`` factories, which
the registry fills (``registry.register_translation``, see
:mod:`mlkit.target`).

A dialect translation is made once per translated module, on first use, so
it may keep per-module state (the GPU translation's module handles and
runtime declarations). It sees the translators only through the protocols
:class:`ModuleContext` and :class:`FunctionContext`, so it depends on this
module alone, never on the translator itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol, TypeVar

from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Attribute, Operation, SSAValue

from mlkit.diagnostics import DiagnosticError
from mlkit.dialects import llvm
from mlkit.registry import import_object
from mlkit.target.llvmir.intrinsics import IntrinsicTable
from mlkit.target.llvmir.types import ConstantBuilder, TranslationFailure, TypeTable

if TYPE_CHECKING:
    from mlkit.registry import Registry

T = TypeVar("T")


class ModuleContext(Protocol):
    """What the module translator offers instruction handlers and dialect
    translations."""

    @property
    def types(self) -> TypeTable: ...

    @property
    def constants(self) -> ConstantBuilder: ...

    @property
    def intrinsics(self) -> IntrinsicTable:
        """Where a handler declares the intrinsics it calls."""
        ...

    @property
    def symbols(self) -> Mapping[str, Operation]:
        """The module-level symbol ops by name."""
        ...

    def error(self, op: Operation, reason: str) -> DiagnosticError: ...

    def guarded(self, op: Operation, work: Callable[[], T]) -> T:
        """Run ``work``, turning a :class:`TranslationFailure` into an error at ``op``."""
        ...

    def variadic_callee_type(self, callee: SymbolRefAttr) -> llvm.LLVMFunctionType | None: ...

    def dialect_translation(self, dialect: str) -> LLVMTranslationDialectInterface | None:
        """This module's translation of ``dialect``'s ops, made on first use."""
        ...


class FunctionContext(Protocol):
    """What the translation of one function offers its instruction handlers."""

    @property
    def module(self) -> ModuleContext: ...

    @property
    def func(self) -> llvm.FuncOp: ...

    @property
    def types(self) -> TypeTable: ...

    def ty(self, type: Attribute) -> str:
        """The LLVM IR spelling of ``type``."""
        ...

    def ref(self, value: SSAValue) -> str:
        """``%N`` or the constant that stands for ``value``."""
        ...

    def typed(self, value: SSAValue) -> str:
        """``<type> <ref>``."""
        ...

    def successor(self, op: Operation, index: int) -> str:
        """``label %N`` of the ``index``-th successor of ``op``."""
        ...


@dataclass
class FunctionHead:
    """What a dialect may amend in a function's header: the calling
    convention (None for LLVM's default, ``ccc``) and function attributes
    written after the llvm dialect's own."""

    calling_convention: str | None
    attributes: list[str] = field(default_factory=list[str])


class LLVMTranslationDialectInterface:
    """Translates one dialect's ops to LLVM IR for one module. Each hook
    rejects by default; a dialect overrides those it needs."""

    def __init__(self, module: ModuleContext) -> None:
        self.module = module

    rewrites_module: bool = False
    """Whether :meth:`prepare_module` rewrites the module (on a copy the
    translator makes) before any of it is translated."""

    def prepare_module(self, module: ModuleOp) -> None:
        """Rewrite this dialect's ops in ``module`` into llvm ops (upstream
        builds such code with ``OpenMPIRBuilder`` while it translates)."""

    def check_module_op(self, op: Operation) -> None:
        """Accept ``op`` as a module-level symbol, or raise
        :class:`TranslationFailure` saying why it cannot be one."""
        raise TranslationFailure("the op is not in the llvm dialect")

    def convert_module_op(self, op: Operation) -> list[str]:
        """The lines of a module-level op :meth:`check_module_op` accepted,
        written after the module's globals."""
        raise TranslationFailure("the op is not in the llvm dialect")

    def convert_operation(self, function: FunctionContext, op: Operation) -> str:
        """The instruction text of ``op`` inside a function (what follows
        ``%N =`` when it has a result); several instructions are joined by
        ``"\\n  "``."""
        raise TranslationFailure("the op is not in the llvm dialect")

    def amend_function(self, func: llvm.FuncOp, head: FunctionHead) -> None:
        """Amend the header of ``func``, which has attributes of this dialect."""

    def trailer(self) -> list[str]:
        """Lines after every function: what the translations above used."""
        return []


def translation_of(module: ModuleContext, op: Operation) -> LLVMTranslationDialectInterface:
    """The translation of ``op``'s dialect in ``module``; a
    :class:`TranslationFailure` if the dialect has none."""
    translation = module.dialect_translation(op.dialect_name())
    if translation is None:
        raise TranslationFailure("the op is not in the llvm dialect")
    return translation


TranslationFactory = Callable[[], type[LLVMTranslationDialectInterface]]


class DialectTranslations:
    """Dialect name -> its translation class, each given as a ``module:attr``
    path or a factory and loaded on first lookup."""

    def __init__(self, factories: Mapping[str, str | TranslationFactory]) -> None:
        self._factories = dict(factories)

    @staticmethod
    def from_registry(registry: Registry) -> DialectTranslations:
        """The translations ``registry`` holds."""
        return DialectTranslations({n: e.factory for n, e in registry.translations.items()})

    def lookup(self, dialect: str) -> type[LLVMTranslationDialectInterface] | None:
        """The translation class of ``dialect``, or None without one."""
        factory = self._factories.get(dialect)
        if factory is None:
            return None
        return import_object(factory) if isinstance(factory, str) else factory()


def default_translations() -> DialectTranslations:
    """The dialect translations of the default registry (every plugin's)."""
    from mlkit.plugins import default_registry

    return DialectTranslations.from_registry(default_registry())
