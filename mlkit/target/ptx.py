"""PTX from GPU kernel modules, through llvmlite's NVPTX target machine
(upstream needs an NVPTX-enabled LLVM build for this; llvmlite has one).

:func:`compile_gpu_module` serializes one ``gpu.module`` whose contents are
in the llvm and nvvm dialects (after ``convert-gpu-to-nvvm``) for its
``#nvvm.target``: translation to LLVM IR, libdevice linked in when a
``__nv_*`` function is called and CUDA's ``libdevice.10.bc`` is found
(``$CUDA_HOME``/``$CUDA_PATH``, else ``/usr/local/cuda``), LLVM's ``O<n>``
pipeline, then ``emit_assembly``. :func:`emit_ptx` is the ``--emit=ptx``
target.
"""

from __future__ import annotations

import os
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation

from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.locations import op_loc

NVPTX_TRIPLE = "nvptx64-nvidia-cuda"


def libdevice_path() -> Path | None:
    """CUDA's libdevice bitcode, if a toolkit is installed."""
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"), "/usr/local/cuda"]
    for root in roots:
        if root:
            candidate = Path(root) / "nvvm" / "libdevice" / "libdevice.10.bc"
            if candidate.is_file():
                return candidate
    return None


def target_parameters(target: Attribute | None) -> tuple[str, str, str, int]:
    """triple, chip, features and O of an ``#nvvm.target`` (defaults without one)."""
    from mlkit.dialects.nvvm import NVVMTargetAttr

    if isinstance(target, NVVMTargetAttr):
        return target.triple.data, target.chip.data, target.features.data, target.O.data
    return NVPTX_TRIPLE, "sm_75", "", 2


# the oldest PTX ISA version that supports each chip, as NVPTX checks it
_MIN_PTX = {"sm_50": 40, "sm_52": 41, "sm_53": 42, "sm_60": 50, "sm_61": 50, "sm_62": 50,
            "sm_70": 60, "sm_72": 61, "sm_75": 63, "sm_80": 70, "sm_86": 71, "sm_87": 74,
            "sm_89": 78, "sm_90": 78, "sm_90a": 80, "sm_100": 86, "sm_100a": 86,
            "sm_101": 86, "sm_120": 87, "sm_120a": 87}  # fmt: skip


def usable_features(chip: str, features: str) -> str:
    """``features`` with a ``+ptxNN`` below the chip's minimum raised to it:
    LLVM aborts the whole process on that combination instead of reporting
    it (upstream's default ``+ptx60`` is too old for ``sm_90``)."""
    minimum = _MIN_PTX.get(chip)
    parts = [f for f in features.split(",") if f]
    out = []
    for part in parts:
        if minimum is not None and part.startswith("+ptx") and part[4:].isdigit():
            part = f"+ptx{max(int(part[4:]), minimum)}"
        out.append(part)
    return ",".join(out)


def kernel_module_as_llvm(gpu_module: Operation) -> ModuleOp:
    """A ``builtin.module`` holding clones of the ``gpu.module``'s ops."""
    body = [op.clone() for op in gpu_module.regions[0].blocks[0].ops]
    return ModuleOp(body)


def compile_gpu_module(gpu_module: Operation, target: Attribute | None) -> str:
    """PTX text of ``gpu_module`` for ``target``."""
    import llvmlite.binding as llvm_binding

    from mlkit.target.llvmir.module import parse_and_verify, translate_module
    from mlkit.target.machine import _initialize, optimize

    triple, chip, features, level = target_parameters(target)
    module = kernel_module_as_llvm(gpu_module)
    module.attributes["llvm.target_triple"] = StringAttr(triple)
    try:
        text = translate_module(module)
    except DiagnosticError:
        raise
    _initialize()
    try:
        machine_target = llvm_binding.Target.from_triple(triple)
    except RuntimeError as exc:
        raise DiagnosticError.at(op_loc(gpu_module), f"no LLVM target for triple '{triple}': {exc}") from None
    machine = machine_target.create_target_machine(
        cpu=chip, features=usable_features(chip, features), opt=level
    )
    llvm_module = parse_and_verify(text, gpu_module)
    llvm_module.triple = triple
    llvm_module.data_layout = str(machine.target_data)
    if "@__nv_" in text and (path := libdevice_path()) is not None:
        libdevice = llvm_binding.parse_bitcode(path.read_bytes())
        libdevice.triple = triple
        libdevice.data_layout = str(machine.target_data)
        llvm_module.link_in(libdevice)
        # libdevice's functions are needed only where called
        for function in llvm_module.functions:
            if function.name.startswith("__nv_") and not function.is_declaration:
                function.linkage = llvm_binding.Linkage.internal
    optimize(llvm_module, machine, level)
    return machine.emit_assembly(llvm_module)


def emit_ptx(module: Operation, ctx: Context) -> str:
    """The PTX of every kernel module: ``gpu.module``s are compiled for their
    first target, ``gpu.binary`` objects in ``assembly`` format are copied."""
    from mlkit.dialects.gpu.kernel import BinaryOp, GPUModuleOp

    parts: list[tuple[str, str]] = []
    for op in module.walk():
        if isinstance(op, GPUModuleOp):
            targets = op.targets.data if op.targets is not None else ()
            parts.append((op.sym_name.data, compile_gpu_module(op, targets[0] if targets else None)))
        elif isinstance(op, BinaryOp):
            for obj in op.objects.data:
                if obj.format.data == "assembly":
                    parts.append((op.sym_name.data, obj.object.data))
    if not parts:
        raise DiagnosticError.at(op_loc(module), "no GPU kernel module to emit PTX for")
    if len(parts) == 1:
        return parts[0][1]
    return "".join(f"// ----- gpu module @{name}\n{ptx}" for name, ptx in parts)
