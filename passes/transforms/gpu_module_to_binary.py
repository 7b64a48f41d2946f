"""``gpu-module-to-binary``: each ``gpu.module`` (already in the llvm and
nvvm dialects) becomes a ``gpu.binary`` with one ``#gpu.object`` per
``#nvvm.target``, as upstream's ``GpuModuleToBinaryPass``.

``format`` (upstream's ``compilation-target``, alias ``format``): ``isa``
keeps the PTX text (through llvmlite's NVPTX target machine,
:mod:`mlkit.target.ptx`); ``bin`` assembles it into a cubin with ``ptxas``;
``fatbin`` wraps that cubin and the PTX with ``fatbinary``; ``offload``
keeps the LLVM IR text. ``bin``/``fatbin`` need the CUDA tools on ``PATH``.
A module without targets is an error, as upstream's.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from mlkit.dialects.gpu.attrs import ObjectAttr
from mlkit.dialects.gpu.kernel import BinaryOp, GPUModuleOp
from mlkit.diagnostics.emit import emit_error

_FORMATS = {"isa": "assembly", "assembly": "assembly", "bin": "bin", "binary": "bin",
            "fatbin": "fatbin", "offload": "offload", "llvm": "offload"}  # fmt: skip


def _tool(ctx: Context, op: Operation, name: str) -> str:
    path = shutil.which(name)
    if path is None:
        raise emit_error(ctx, op, f"'{name}' was not found on PATH; it is needed for this format")
    return path


def serialize(
    ctx: Context, module: GPUModuleOp, target: Attribute, fmt: str, section: str = ""
) -> ObjectAttr:
    """The object of ``module`` for ``target``. As upstream's NVVM target, PTX
    records the optimization level its JIT loader is to use (``O``), and a
    non-empty ``section`` names the ELF section the host binary keeps it in."""
    from mlkit.target.ptx import compile_gpu_module, kernel_module_as_llvm, target_parameters

    props: dict[str, Attribute] = {}
    if fmt == "assembly":
        props["O"] = IntegerAttr(target_parameters(target)[3], 32)
    if section:
        props["section"] = StringAttr(section)

    if fmt == "offload":
        from mlkit.target.llvmir.module import translate_module

        text = translate_module(kernel_module_as_llvm(module))
        return ObjectAttr(target, StringAttr(fmt), StringAttr(text), DictionaryAttr(props))
    ptx = compile_gpu_module(module, target)
    if fmt == "assembly":
        return ObjectAttr(target, StringAttr(fmt), StringAttr(ptx), DictionaryAttr(props))
    _, chip, _, level = target_parameters(target)
    with tempfile.TemporaryDirectory() as tmp:
        source, cubin = Path(tmp) / "k.ptx", Path(tmp) / "k.cubin"
        source.write_text(ptx)
        run = subprocess.run(
            [_tool(ctx, module, "ptxas"), f"-arch={chip}", f"-O{level}", str(source), "-o", str(cubin)],
            capture_output=True, text=True,
        )
        if run.returncode:
            raise emit_error(ctx, module, f"ptxas failed: {run.stderr.strip()}")
        data = cubin.read_bytes()
        if fmt == "fatbin":
            fatbin = Path(tmp) / "k.fatbin"
            run = subprocess.run(
                [_tool(ctx, module, "fatbinary"), "-64", f"--image3=kind=elf,sm={chip[3:]},file={cubin}",
                 f"--image3=kind=ptx,sm={chip[3:]},file={source}", f"--create={fatbin}"],
                capture_output=True, text=True,
            )
            if run.returncode:
                raise emit_error(ctx, module, f"fatbinary failed: {run.stderr.strip()}")
            data = fatbin.read_bytes()
    # binary contents are kept byte for byte, one character per byte
    contents = StringAttr(data.decode("latin-1"))
    return ObjectAttr(target, StringAttr(fmt), contents, DictionaryAttr(props))


@dataclass(frozen=True)
class GpuModuleToBinaryPass(ModulePass):
    """Transforms a GPU module into a GPU binary."""

    name = "gpu-module-to-binary"

    format: str = "fatbin"
    toolkit: str = ""
    l: tuple[str, ...] = ()
    opts: str = ""
    section: str = ""

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        fmt = _FORMATS.get(self.format)
        if fmt is None:
            raise emit_error(ctx, op, f"Invalid format specified: {self.format}")
        for module in [o for o in op.walk() if isinstance(o, GPUModuleOp)]:
            targets = module.targets.data if module.targets is not None else ()
            if not targets:
                raise emit_error(ctx, module, "the module has no target attributes")
            objects = [serialize(ctx, module, target, fmt, self.section) for target in targets]
            binary = BinaryOp.create(properties={
                "sym_name": module.sym_name, "objects": ArrayAttr(objects),
                **({"offloadingHandler": module.offloadingHandler} if module.offloadingHandler else {}),
            })
            Rewriter.replace_op(module, binary)
