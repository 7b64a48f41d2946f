"""The one registry of dialects, passes and named pipelines.

Names map to factories, so registering costs nothing and a run imports only what it
uses. Built-in dialects and passes register through the same calls a third-party
plugin makes (see ``mlkit.plugins``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

if TYPE_CHECKING:
    from xdsl.ir import Dialect
    from xdsl.passes import ModulePass

# The IR's own dialect: xDSL's IR is built on it, so every context holds it and
# no registration may take its name. Every other dialect, mlkit's own included,
# comes from a plugin.
BUILTIN_DIALECT = ("builtin", "xdsl.dialects.builtin:Builtin")


class RegistryError(Exception):
    """A registration that cannot be accepted, such as a name clash."""


def import_object(path: str) -> Any:
    """Import ``module:attribute``; the lazy form built-ins register with."""
    import importlib

    module_name, _, attr = path.partition(":")
    return getattr(importlib.import_module(module_name), attr)


def first_doc_line(obj: object) -> str:
    """The first line of an object's own docstring, used as its summary."""
    import inspect

    doc = inspect.getdoc(obj) if "__doc__" in getattr(obj, "__dict__", {}) else None
    if doc and doc.startswith(f"{getattr(obj, '__name__', '')}("):
        return ""  # the signature @dataclass writes when there is no docstring
    return doc.strip().splitlines()[0] if doc else ""


@dataclass
class DialectEntry:
    """A registered dialect: its name, a factory that builds the
    ``xdsl.ir.Dialect`` on first use, and the plugin that registered it
    (``Registry.dialects`` maps names to these)."""

    name: str
    factory: Callable[[], Dialect]
    source: str


T = TypeVar("T")


@dataclass
class Entry(Generic[T]):
    """A registered name: a lazy factory for what it names, a one-line
    summary, and the plugin that registered it (``source``, such as
    ``"plugin 'toy' (my_package.my_plugin)"``). ``Registry.passes``,
    ``pipelines``, ``emitters`` and ``translations`` map names to these."""

    name: str
    factory: Callable[[], T]
    summary: str
    source: str

    def load(self) -> T:
        """What the name stands for (a pass class, a pipeline class, an
        emitter function...), imported now if it was registered lazily."""
        return self.factory()


# A pass: its pipeline name and a factory for its ModulePass class.
PassEntry = Entry[type["ModulePass"]]
# A named pipeline: a class whose fields are options and whose ``pipeline()``
# returns the textual pipeline it expands to.
PipelineEntry = Entry[type[Any]]
# An ``--emit=NAME`` target: a function ``(module, ctx) -> str | bytes``.
EmitterEntry = Entry[Callable[..., str | bytes]]


def _lazy(target: Any) -> Callable[[], Any]:
    if isinstance(target, str):
        return lambda: import_object(target)
    if callable(target) and not isinstance(target, type) and not hasattr(target, "name"):
        return target
    return lambda: target


def _named(
    kind: str, target: type[Any] | str, factory: Any, summary: str | None
) -> tuple[str, Callable[[], Any], str]:
    """Name, lazy factory and summary of a pass or pipeline registration."""
    if isinstance(target, str):
        if factory is None:
            raise RegistryError(f"{kind} '{target}' registered without a factory")
        return target, _lazy(factory), summary or ""
    name = getattr(target, "name", None)
    if not isinstance(name, str) or not name:
        raise RegistryError(f"{kind} class {target.__name__} has no 'name'")
    return name, _lazy(target), summary if summary is not None else first_doc_line(target)


class Registry:
    """Dialects, passes and named pipelines, keyed by their upstream names.

    A plugin's ``register(registry)`` is given one and calls its
    ``register_*`` methods; :func:`mlkit.default_registry` is the one the
    tools and :func:`mlkit.compile` use. A name taken by one plugin is
    refused to the next with :class:`RegistryError` naming the first. What
    was registered is read from its tables, each keyed by name:

    - ``dialects``: :class:`DialectEntry` (``builtin`` is not among them:
      every context has it);
    - ``passes`` and ``pipelines``: :class:`Entry` of the pass or pipeline
      class (the two share one namespace);
    - ``emitters``: :class:`Entry` of each ``--emit=NAME`` function;
    - ``translations``: :class:`Entry` of each dialect's LLVM IR translation.

    ``current_source`` names the plugin whose ``register`` is running (the
    entries' ``source``), and ``loaded_plugins`` the modules
    :func:`mlkit.load_plugin` has loaded into this registry.
    """

    def __init__(self) -> None:
        self.dialects: dict[str, DialectEntry] = {}
        self.passes: dict[str, PassEntry] = {}
        self.pipelines: dict[str, PipelineEntry] = {}
        self.emitters: dict[str, EmitterEntry] = {}
        self.translations: dict[str, Entry[type[Any]]] = {}
        self.current_source = "<api>"
        self.loaded_plugins: set[str] = set()

    # -- dialects ---------------------------------------------------------------
    def register_dialect(
        self, dialect: Dialect | str, factory: Callable[[], Dialect] | str | None = None
    ) -> None:
        """Register a dialect under its name.

        ``dialect`` is an ``xdsl.ir.Dialect``, registered under its
        ``name``; or a name, with ``factory`` a function returning the
        ``Dialect`` (or a ``"module:attr"`` path to it), called the first
        time a context meets an op or type of that dialect. RegistryError
        for a name already taken (``builtin`` included) or a name without a
        factory."""
        if isinstance(dialect, str):
            if factory is None:
                raise RegistryError(f"dialect '{dialect}' registered without a factory")
            name, make = dialect, _lazy(factory)
        else:
            name, make = dialect.name, _lazy(dialect)
        if name == BUILTIN_DIALECT[0]:
            raise RegistryError(f"dialect '{name}' is already registered (the IR's own dialect)")
        if name in self.dialects:
            prev = self.dialects[name].source
            raise RegistryError(f"dialect '{name}' is already registered by {prev}")
        self.dialects[name] = DialectEntry(name, make, self.current_source)

    # -- passes -----------------------------------------------------------------
    def register_pass(
        self,
        pass_class: type[ModulePass] | str,
        factory: Callable[[], type[ModulePass]] | str | None = None,
        *,
        summary: str | None = None,
    ) -> None:
        """Register a pass.

        ``pass_class`` is an ``xdsl.passes.ModulePass`` subclass: its
        ``name`` is its pipeline name (``-name`` on the command line), its
        dataclass fields are its options, and an ``anchor`` class variable
        (``"func.func"``) names the op it runs on. Or ``pass_class`` is the
        name and ``factory`` a function returning the class (or a
        ``"module:attr"`` path to it), imported only when the pass is used.
        ``summary`` is the line ``mlkit-opt --list-passes`` shows; by default
        the first line of the class's docstring (empty for a lazy one).
        RegistryError for a name already taken by a pass or pipeline."""
        self._register_runnable("pass", self.passes, PassEntry, pass_class, factory, summary)

    def register_pipeline(
        self,
        pipeline_class: type[Any] | str,
        factory: Callable[[], type[Any]] | str | None = None,
        *,
        summary: str | None = None,
    ) -> None:
        """Register a named pipeline: a name that expands to a textual
        pipeline, usable wherever a pass is.

        ``pipeline_class`` is a dataclass with a ``name``, its options as
        fields, and a method ``pipeline(self) -> str`` returning the
        pipeline it stands for, relative to where it is used
        (``"cse,func.func(canonicalize)"``). Or it is the name and ``factory`` a
        function returning the class (or a ``"module:attr"`` path to it).
        ``summary`` as for :meth:`register_pass`; RegistryError for a name
        already taken by a pass or pipeline."""
        self._register_runnable(
            "pipeline", self.pipelines, PipelineEntry, pipeline_class, factory, summary
        )

    def _register_runnable(
        self,
        kind: str,
        table: dict[str, Any],
        entry: Callable[..., Any],
        named: type[Any] | str,
        factory: Callable[[], type[Any]] | str | None,
        summary: str | None,
    ) -> None:
        """Add a pass or pipeline to ``table``: the two share one namespace."""
        name, make, summary = _named(kind, named, factory, summary)
        self._check_free(name)
        table[name] = entry(name, make, summary, self.current_source)

    def register_emitter(
        self, name: str, factory: Callable[[], Callable[..., str | bytes]] | str, *, summary: str = ""
    ) -> None:
        """Register an ``--emit=NAME`` target of ``mlkit-opt``.

        ``factory`` returns (or names, as ``"module:attr"``) a function
        ``(module, ctx) -> str | bytes`` that turns the module the pipeline
        produced into the output; ``summary`` is the line the pass reference
        shows. RegistryError for a name already taken (``mlir`` included)."""
        if name == "mlir" or name in self.emitters:
            raise RegistryError(f"emitter '{name}' is already registered")
        make = (lambda: import_object(factory)) if isinstance(factory, str) else factory
        self.emitters[name] = EmitterEntry(name, make, summary, self.current_source)

    def register_translation(self, dialect: str, factory: Callable[[], type[Any]] | str) -> None:
        """Register the LLVM IR translation of ``dialect``'s ops: an
        ``LLVMTranslationDialectInterface`` subclass, or a ``"module:attr"``
        path to one. The translator looks it up by each op's dialect name."""
        if dialect == "llvm" or dialect in self.translations:
            raise RegistryError(f"an LLVM IR translation of dialect '{dialect}' is already registered")
        self.translations[dialect] = Entry(dialect, _lazy(factory), "", self.current_source)

    def _check_free(self, name: str) -> None:
        for table, kind in ((self.passes, "pass"), (self.pipelines, "pipeline")):
            if name in table:
                prev = table[name].source
                raise RegistryError(f"{kind} '{name}' is already registered by {prev}")

    # -- lookup -----------------------------------------------------------------
    def dialect_names(self) -> list[str]:
        """Every registered dialect's name, ``builtin`` included, sorted."""
        return sorted({BUILTIN_DIALECT[0], *self.dialects})

    def load_dialect(self, name: str) -> Dialect:
        """The ``xdsl.ir.Dialect`` registered as ``name``, built now by its
        factory; KeyError for a name not registered."""
        if name in self.dialects:
            return self.dialects[name].factory()
        if name == BUILTIN_DIALECT[0]:
            return import_object(BUILTIN_DIALECT[1])
        raise KeyError(name)
