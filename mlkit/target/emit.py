"""The ``--emit`` targets past MLIR: LLVM IR text, host assembly and object
files, from a module in the llvm dialect.

Registered by the built-in passes plugin (``mlkit.passes``), as a third
party would register its own. Each is ``(module, ctx) -> str | bytes``; the
triple, CPU and optimization level come from the context
(:mod:`mlkit.target.machine`). Every module is parsed and verified
by LLVM before anything is written. An object or assembly file that calls
mlkit's thread pool carries the pool itself (:mod:`mlkit.runtime.threads`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from xdsl.context import Context
from xdsl.ir import Operation

from mlkit.target.llvmir.module import MODULE_ID, translate_and_verify
from mlkit.target.machine import get_target_options, prepare

if TYPE_CHECKING:
    from llvmlite.binding import ModuleRef, TargetMachine


def _lowered(
    module: Operation, ctx: Context, for_machine: bool
) -> tuple[ModuleRef, TargetMachine | None]:
    llvm_module = translate_and_verify(module)
    llvm_module.name = MODULE_ID
    options = get_target_options(ctx)
    machine = None
    if for_machine or options.triple or options.cpu or options.opt_level:
        machine = prepare(llvm_module, options, module)
    if for_machine and machine is not None:
        _link_thread_pool(llvm_module, machine.triple)
    return llvm_module, machine


def _link_thread_pool(llvm_module: ModuleRef, triple: str) -> None:
    """Carry the thread pool in an object that calls it (weak, so that the
    objects of one program share one pool)."""
    from mlkit.runtime.threads import ENTRY_POINTS, pool_ir

    if not any(fn.is_declaration and fn.name in ENTRY_POINTS for fn in llvm_module.functions):
        return
    import llvmlite.binding as llvm_binding

    pool = llvm_binding.parse_assembly(pool_ir(triple, for_object=True))
    pool.triple, pool.data_layout = llvm_module.triple, llvm_module.data_layout
    llvm_module.link_in(pool)


def emit_llvm(module: Operation, ctx: Context) -> str:
    """LLVM IR text, as ``mlir-translate --mlir-to-llvmir`` prints it."""
    llvm_module, _ = _lowered(module, ctx, for_machine=False)
    return str(llvm_module)


def emit_asm(module: Operation, ctx: Context) -> str:
    """Assembly for the target (the host unless a triple is chosen)."""
    llvm_module, machine = _lowered(module, ctx, for_machine=True)
    assert machine is not None
    return machine.emit_assembly(llvm_module)


def emit_obj(module: Operation, ctx: Context) -> bytes:
    """An object file for the target (the host unless a triple is chosen)."""
    llvm_module, machine = _lowered(module, ctx, for_machine=True)
    assert machine is not None
    return machine.emit_object(llvm_module)
