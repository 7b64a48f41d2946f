"""A compiled program as ``mlkit.compile`` returns it: its public functions
as attributes, each bound to its C interface (``_mlir_ciface_<name>``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from mlkit.api.call import BoundFunction
from mlkit.api.signature import Signature

if TYPE_CHECKING:
    from mlkit.pipeline.report import PassReport


class CompiledProgram:
    """The public functions of a compiled module, as attributes (or
    ``prog["name"]``, which also reaches a function whose name is one of the
    program's own attributes); ``prog.mlir`` is the lowered MLIR and
    ``prog.llvm_ir`` the LLVM IR, to read.

    Made by :func:`mlkit.compile`, not by hand. Each function is a
    :class:`~mlkit.api.call.BoundFunction`, which keeps the program's code
    alive as long as it is referenced. Besides its functions a program has:

    - ``llvm_ir``: the LLVM IR text its code was compiled from;
    - ``signatures``: the :class:`~mlkit.api.signature.Signature` of each
      callable function, by name (its parameter and result types);
    - ``unsupported``: the public functions that cannot be called from
      Python, by name, each with the reason (a parameter or result type the
      API cannot pass); asking for one raises AttributeError with it;
    - ``memory``: where the target stages arguments during a call and how
      it frees returned buffers (host memory for ``"cpu"``).
    """

    def __init__(
        self,
        compiled: Any,
        signatures: dict[str, Signature],
        llvm_ir: str,
        unsupported: dict[str, str] | None = None,
        memory: Any = None,
    ) -> None:
        self._compiled = compiled
        self.memory = memory
        self.unsupported = unsupported or {}
        self.signatures = signatures
        self.llvm_ir = llvm_ir
        self._functions: dict[str, BoundFunction] = {}
        # runs the pipeline again with every pass recorded (set by mlkit.compile)
        self._relower: Callable[[], PassReport] | None = None
        self._report: PassReport | None = None

    def _steps(self) -> PassReport:
        if self._report is None:
            if self._relower is None:
                raise AttributeError("this program was not compiled from MLIR text")
            self._report = self._relower()
        return self._report

    @property
    def mlir(self) -> str:
        """The MLIR the pipeline lowered the source to (the pipeline runs
        again, once, when first asked)."""
        report = self._steps()
        if report.steps:
            return report.steps[-1].after
        return report.input_ir or ""

    def mlir_after(self, pass_name: str) -> str:
        """The MLIR after the last run of the pass ``pass_name``
        (``"convert-linalg-to-loops"``); KeyError naming the passes run if
        the pipeline has none of that name."""
        for step in reversed(self._steps().steps):
            if step.name == pass_name:
                return step.after
        ran = ", ".join(dict.fromkeys(step.name for step in self._steps().steps))
        raise KeyError(f"the pipeline ran no pass '{pass_name}' (it ran: {ran})")

    @property
    def functions(self) -> list[str]:
        """The names of the callable public functions, sorted."""
        return sorted(self.signatures)

    def function(self, name: str) -> BoundFunction:
        """The public function ``name`` (its ``sym_name``, without the
        ``@``), bound to its compiled code on first use; ``prog.name`` and
        ``prog["name"]`` are this. AttributeError, saying why, for a name
        that is not a public function, for one whose types the API cannot
        pass, and for one the pipeline left without a C interface."""
        if name not in self._functions:
            if name in self.unsupported:
                raise AttributeError(
                    f"function '{name}' cannot be called: {self.unsupported[name]}"
                )
            if name not in self.signatures:
                known = ", ".join(f"'{n}'" for n in self.functions) or "none"
                raise AttributeError(
                    f"the compiled module has no public function '{name}' (functions: {known})"
                )
            try:
                address = self._compiled.address(f"_mlir_ciface_{name}")
            except KeyError:
                raise AttributeError(
                    f"function '{name}' has no '_mlir_ciface_{name}' in the compiled code "
                    "(the pipeline must lower func.func with convert-func-to-llvm, which emits "
                    "C interfaces for functions marked llvm.emit_c_interface)"
                ) from None
            if not address:  # a call would jump to address 0
                raise AttributeError(f"function '{name}': '_mlir_ciface_{name}' is at address 0")
            guard = 0
            if getattr(getattr(self._compiled, "options", None), "runtime_checks", False):
                guard = self._compiled.guarded_address(f"_mlir_ciface_{name}")
            self._functions[name] = BoundFunction(self, self.signatures[name], address, guard)
        return self._functions[name]

    def __getattr__(self, name: str) -> BoundFunction:
        """``prog.matmul`` is ``prog.function("matmul")``, for a function
        whose name is not one of the program's own attributes (``mlir``,
        ``functions``, ...); AttributeError as :meth:`function` raises it."""
        if name.startswith("__") or name in (
            "_compiled",
            "signatures",
            "_functions",
            "unsupported",
            "memory",
            "_relower",
            "_report",
        ):
            raise AttributeError(name)
        return self.function(name)

    def __getitem__(self, name: str) -> BoundFunction:
        """``prog["matmul"]`` is ``prog.function("matmul")``, for any name,
        those of the program's own attributes included; KeyError where
        :meth:`function` raises AttributeError."""
        try:
            return self.function(name)
        except AttributeError as exc:
            raise KeyError(str(exc)) from None

    def __dir__(self) -> list[str]:
        return [*super().__dir__(), *self.signatures]

    def __repr__(self) -> str:
        return f"<mlkit CompiledProgram functions={self.functions}>"
