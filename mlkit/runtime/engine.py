"""The engines the runtime's own LLVM IR runs in (the caching allocator, the
thread pool): compiled once per process for the host and never freed, since
memory they hand out and threads they start outlive any compiled program."""

from __future__ import annotations

import ctypes
from collections.abc import Sequence
from typing import Any


def compile_for_good(ir: str, opt_level: int, required: Sequence[str]) -> Any | None:
    """An MCJIT engine of ``ir`` for the host at ``opt_level``, finalized and
    kept alive until the process ends; None where the process lacks one of
    the ``required`` C library symbols."""
    import llvmlite.binding as llvm_binding

    llvm_binding.initialize_native_target()
    llvm_binding.initialize_native_asmprinter()
    target = llvm_binding.Target.from_triple(llvm_binding.get_process_triple())
    machine = target.create_target_machine(opt=opt_level, codemodel="jitdefault")
    module = llvm_binding.parse_assembly(ir)
    module.verify()
    module.triple = machine.triple
    module.data_layout = str(machine.target_data)
    engine = llvm_binding.create_mcjit_compiler(module, machine)
    # MCJIT loads the process's symbols when it is created: only now can we ask
    if not all(llvm_binding.address_of_symbol(name) for name in required):
        return None
    engine.finalize_object()
    ctypes.pythonapi.Py_IncRef(ctypes.py_object(engine))
    return engine
