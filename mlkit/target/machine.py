"""Target settings for what leaves mlkit as LLVM IR, assembly or an object,
and the llvmlite target machine that acts on them.

The settings travel on the xDSL ``Context`` that emitters receive (as the
diagnostic handler does), so the emitter signature stays ``(module, ctx)``.
llvmlite is imported only when a target machine is needed, keeping the
tools' start-up light.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.ir import Operation

from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.locations import op_loc

if TYPE_CHECKING:
    from llvmlite.binding import ModuleRef, TargetMachine

OPTIONS_ATTR = "mlkit_target_options"


@dataclass(frozen=True)
class TargetOptions:
    """``--mtriple``, ``--mcpu`` and ``--opt-level``; ``None`` means the
    module's ``llvm.target_triple`` or else the host, and a generic CPU."""

    triple: str | None = None
    cpu: str | None = None
    opt_level: int = 0


def parse_opt_level(text: str) -> int:
    """``O0``..``O3`` (or ``0``..``3``); ValueError otherwise."""
    digits = text[1:] if text[:1] in ("O", "o") else text
    if digits not in ("0", "1", "2", "3"):
        raise ValueError(f"'{text}' is not an optimization level (expected O0, O1, O2 or O3)")
    return int(digits)


def set_target_options(ctx: Context, options: TargetOptions) -> None:
    setattr(ctx, OPTIONS_ATTR, options)


def get_target_options(ctx: Context | None) -> TargetOptions:
    options = getattr(ctx, OPTIONS_ATTR, None)
    return options if isinstance(options, TargetOptions) else TargetOptions()


def check_triple(triple: str) -> str | None:
    """Why LLVM has no target for ``triple``, or None when it has one."""
    import llvmlite.binding as llvm_binding

    _initialize()
    try:
        llvm_binding.Target.from_triple(triple)
    except RuntimeError as exc:
        return " ".join(str(exc).split())
    return None


_CPU_PROBE = """
import sys
import llvmlite.binding as llvm
llvm.initialize_all_targets()
llvm.initialize_all_asmprinters()
triple, cpu = sys.argv[1], sys.argv[2]
machine = llvm.Target.from_triple(triple).create_target_machine(
    cpu=cpu, reloc="pic", codemodel="default")
module = llvm.parse_assembly('define void @f() {\\n  ret void\\n}\\n')
module.triple = triple
machine.emit_assembly(module)
"""


@cache
def check_cpu(triple: str, cpu: str) -> str | None:
    """Why LLVM cannot generate code for ``cpu`` on ``triple``, or None.

    LLVM only warns of a CPU it does not know (``'x' is not a recognized
    processor for this target``) and then, generating code for it, may end the
    process with a fatal error no Python code can catch (x86-64: ``64-bit code
    requested on a subtarget that doesn't support it!``; so does a known
    32-bit CPU). So a child process generates code for an empty function
    first; it can die in our place. Once per triple and CPU."""
    import subprocess
    import sys

    try:
        probe = subprocess.run(
            [sys.executable, "-c", _CPU_PROBE, triple, cpu],
            capture_output=True, text=True, timeout=120, check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None  # no child process here: leave the CPU to LLVM
    if "is not a recognized processor" in probe.stderr:
        return f"--mcpu: '{cpu}' is not a recognized processor for target '{triple}'"
    if probe.returncode != 0:
        lines = [line for line in probe.stderr.splitlines() if line.strip()]
        reason = lines[-1].removeprefix("LLVM ERROR: ") if lines else "it failed"
        return f"--mcpu: LLVM cannot generate code for '{triple}' on CPU '{cpu}': {reason}"
    return None


@cache
def _initialize() -> None:
    """Make every target llvmlite was built with available (once per process)."""
    import llvmlite.binding as llvm_binding

    llvm_binding.initialize_all_targets()
    llvm_binding.initialize_all_asmprinters()


def target_machine(options: TargetOptions, module_triple: str, where: Operation) -> TargetMachine:
    """The machine for ``options``; an unknown triple is an error at ``where``."""
    import llvmlite.binding as llvm_binding

    _initialize()
    triple = options.triple or module_triple or llvm_binding.get_process_triple()
    try:
        target = llvm_binding.Target.from_triple(triple)
    except RuntimeError as exc:
        raise DiagnosticError.at(
            op_loc(where), f"no LLVM target for triple '{triple}': {' '.join(str(exc).split())}"
        ) from None
    cpu, features = options.cpu or "", ""
    if cpu == "native":
        cpu = llvm_binding.get_host_cpu_name()
        features = llvm_binding.get_host_cpu_features().flatten()
    elif cpu and (problem := check_cpu(triple, cpu)) is not None:
        raise DiagnosticError.at(op_loc(where), problem)
    return target.create_target_machine(
        cpu=cpu, features=features, opt=options.opt_level, reloc="pic", codemodel="default"
    )


def prepare(module: ModuleRef, options: TargetOptions, where: Operation) -> TargetMachine:
    """Give ``module`` the target's triple and data layout (a data layout the
    module states wins) and optimize it at the chosen level."""
    machine = target_machine(options, module.triple, where)
    module.triple = machine.triple
    if not module.data_layout:
        module.data_layout = str(machine.target_data)
    optimize(module, machine, options.opt_level)
    return machine


def optimize(module: ModuleRef, machine: TargetMachine, level: int) -> None:
    """LLVM's default ``O<level>`` pipeline through the new pass manager;
    ``O0`` leaves the IR as translated."""
    if level == 0:
        return
    import llvmlite.binding as llvm_binding

    tuning = llvm_binding.create_pipeline_tuning_options(speed_level=level)
    builder = llvm_binding.create_pass_builder(machine, tuning)
    builder.getModulePassManager().run(module, builder)
