"""Symbol resolution for the JIT: which external symbols a module needs,
loading ``-shared-libs`` libraries, and a located error for any symbol that
nothing defines.

MCJIT aborts the whole process on a relocation it cannot resolve, so every
symbol the compiled code refers to is looked up before code is generated.
Lookups follow the dynamic loader's view (``llvmlite.binding.address_of_symbol``):
symbols added by mlkit's runtime, the process itself (the C library, libm)
and every library loaded with ``load_library_permanently``.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr
from xdsl.ir import Attribute, Operation

from mlkit.diagnostics import DiagnosticError
from mlkit.diagnostics.locations import op_loc

if TYPE_CHECKING:
    from llvmlite.binding import ModuleRef


class JitError(Exception):
    """A JIT failure with no place in the input (a library that will not load, an
    unsupported target); the tools print it as one line."""


def load_shared_libraries(paths: Sequence[str]) -> list[str]:
    """Load each library for the life of the process, skipping upstream's
    runner-utils libraries (mlkit's runtime provides them). Returns the
    libraries actually loaded."""
    import llvmlite.binding as llvm_binding

    from mlkit.runtime import is_builtin_library

    loaded: list[str] = []
    for path in paths:
        if not path or is_builtin_library(path):
            continue
        full = os.path.abspath(path) if os.sep in path or os.path.exists(path) else path
        if os.sep in full and not os.path.exists(full):
            raise JitError(f"cannot load shared library '{path}': no such file")
        try:
            llvm_binding.load_library_permanently(full)
        except RuntimeError as exc:
            raise JitError(
                f"cannot load shared library '{path}': {' '.join(str(exc).split())}"
            ) from None
        loaded.append(full)
    return loaded


def referenced_symbols(module: Operation) -> set[str]:
    """Every symbol some op refers to (callees, ``llvm.mlir.addressof``, ...)."""
    names: set[str] = set()

    def collect(attr: Attribute) -> None:
        if isinstance(attr, SymbolRefAttr):
            names.add(attr.root_reference.data)

    for op in module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            collect(attr)
    return names


def symbol_ops(module: Operation) -> dict[str, Operation]:
    """Module-level symbol ops by name."""
    table: dict[str, Operation] = {}
    if isinstance(module, ModuleOp):
        for op in module.ops:
            name = op.properties.get("sym_name") or op.attributes.get("sym_name")
            if isinstance(name, StringAttr):
                table[name.data] = op
    return table


def external_symbols(llvm_module: ModuleRef, module: Operation) -> list[str]:
    """Declarations of ``llvm_module`` that compiled code will refer to: those
    the MLIR module uses, and any that LLVM's optimizer introduced (a
    ``memset`` for a loop, say). Intrinsics are LLVM's own business."""
    used = referenced_symbols(module)
    declared_in_mlir = symbol_ops(module)
    names: list[str] = []
    for fn in llvm_module.functions:
        if fn.is_declaration and not fn.name.startswith("llvm."):
            if fn.name in used or fn.name not in declared_in_mlir:
                names.append(fn.name)
    for var in llvm_module.global_variables:
        if var.is_declaration and (var.name in used or var.name not in declared_in_mlir):
            names.append(var.name)
    return names


def check_resolved(names: Iterable[str], provided: Iterable[str], module: Operation) -> None:
    """A located error naming the symbols among ``names`` that neither
    ``provided`` nor the process and its loaded libraries define."""
    import llvmlite.binding as llvm_binding

    have = set(provided)
    missing = [n for n in names if n not in have and not llvm_binding.address_of_symbol(n)]
    if not missing:
        return
    ops = symbol_ops(module)
    where = ops.get(missing[0], module)
    quoted = ", ".join(f"'{n}'" for n in missing)
    noun = "symbol" if len(missing) == 1 else "symbols"
    raise DiagnosticError.at(
        op_loc(where),
        f"unresolved {noun} {quoted}: not defined in the module, not part of mlkit's "
        "runtime, and not found in the process or any -shared-libs library",
    )
