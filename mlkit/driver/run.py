"""What ``mlkit-run`` does once its arguments are parsed, as mlir-runner
does: read llvm dialect IR, check the entry point, JIT-compile, call it and
print a non-void result.

Every failure the input can cause is one located error (or one line for
problems with no place in the input, such as a library that will not load),
exit code 1, and no traceback.
"""

from __future__ import annotations

import ctypes
import math
import os
from dataclasses import dataclass, field
from typing import Any, TextIO

from xdsl.dialects.builtin import Float32Type, Float64Type, IntegerType
from xdsl.ir import Attribute, Operation

from mlkit.diagnostics import DiagnosticEngine, DiagnosticError, SourceManager
from mlkit.execution.jit import JitOptions
from mlkit.registry import Registry

TRACEBACK_ENV = "MLKIT_TRACEBACK"
ENTRY_RESULTS = ("void", "i32", "i64", "f32", "f64")


@dataclass
class RunOptions:
    """mlir-runner's options, as parsed from the command line."""

    input: str = "-"
    entry: str = "main"
    result: str = "f32"  # mlir-runner's default
    jit: JitOptions = field(default_factory=JitOptions)
    show_traceback: bool = False
    num_threads: int = 0  # threads of mlkit's pool for parallel loops; 0: its default


_CTYPES: dict[str, Any] = {
    "void": None,
    "i32": ctypes.c_int32,
    "i64": ctypes.c_int64,
    "f32": ctypes.c_float,
    "f64": ctypes.c_double,
}


def _matches(result: str, type: Attribute) -> bool:
    from mlkit.dialects.llvm import LLVMVoidType

    match result:
        case "void":
            return isinstance(type, LLVMVoidType)
        case "i32" | "i64":
            return isinstance(type, IntegerType) and type.width.data == int(result[1:])
        case "f32":
            return isinstance(type, Float32Type)
        case _:
            return isinstance(type, Float64Type)


def check_entry(module: Operation, name: str, result: str) -> None:
    """A located error unless ``name`` is a defined ``llvm.func`` taking no
    arguments and returning what ``-entry-point-result`` says."""
    from mlkit.dialects import llvm
    from mlkit.execution.symbols import symbol_ops
    from mlkit.diagnostics.locations import op_loc

    op = symbol_ops(module).get(name)
    if not isinstance(op, llvm.FuncOp):
        raise DiagnosticError.at(op_loc(op or module), f"entry point '{name}' not found")
    if op.is_declaration:
        raise DiagnosticError.at(
            op_loc(op), f"entry point '{name}' not found: it is only declared here, not defined"
        )
    fn = op.function_type
    if fn.inputs.data or fn.is_variadic:
        count = len(fn.inputs.data)
        raise DiagnosticError.at(
            op_loc(op),
            f"entry point '{name}' takes {count} argument{'s' if count != 1 else ''}"
            f"{' and is variadic' if fn.is_variadic else ''}; mlkit-run calls it with none "
            "(function inputs not supported)",
        )
    if not _matches(result, fn.output):
        raise DiagnosticError.at(
            op_loc(op),
            f"entry point '{name}' returns {_type_text(fn.output)}, but "
            f"-entry-point-result={result} expects "
            + ("no result" if result == "void" else f"a single {result} result"),
        )


def _type_text(type: Attribute) -> str:
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out).print_attribute(type)
    return "'" + out.getvalue() + "'"


def format_result(value: int | float, result: str) -> str:
    """A result as mlir-runner prints it (``llvm::outs() <<``): integers in
    decimal, floats in ``%e`` style, ``nan``, ``INF``, ``-INF``."""
    if result in ("i32", "i64"):
        return f"{int(value)}\n"
    if math.isnan(value):
        return "nan\n"
    if math.isinf(value):
        return ("-INF" if value < 0 else "INF") + "\n"
    return "%e\n" % value


def run_runner(opts: RunOptions, registry: Registry, stdout: TextIO, stderr: TextIO) -> int:
    """Run mlkit-run; returns the exit code. Bad input never raises."""
    from mlkit.context import make_context
    from mlkit.execution.jit import JitError, jit_compile
    from mlkit.syntax.parser import parse_module
    from mlkit.runtime.callbacks import flush_c_stdio
    from mlkit.driver.source_input import read_input
    from mlkit.diagnostics.verifier import verify_op_tree

    sources = SourceManager()
    engine = DiagnosticEngine(sources, stderr)
    try:
        name, text = read_input(opts.input)
        sources.add(name, text)
        ctx = make_context(registry)
        module = parse_module(ctx, text, name)
        verify_op_tree(module)
        from mlkit.execution.jit import check_llvm_dialect

        check_llvm_dialect(module)
        check_entry(module, opts.entry, opts.result)
        compiled = jit_compile(module, opts.jit)
    except DiagnosticError as err:
        engine.emit(err.diagnostic)
        return 1
    except JitError as exc:
        stderr.write(f"mlkit-run: error: {exc}\n")
        return 1
    except RecursionError:
        stderr.write("mlkit-run: error: nesting too deep\n")
        return 1
    except Exception as exc:  # a bug, not bad input
        return _internal_error(exc, opts, stderr)

    if opts.num_threads:
        from mlkit.runtime.threads import set_num_threads

        set_num_threads(opts.num_threads)
    if opts.jit.runtime_checks:
        failed, value = _guarded_call(compiled, opts)
        flush_c_stdio()
        if failed:
            stdout.flush()
            stderr.write(f"mlkit-run: error: a runtime check of '{opts.entry}' failed\n")
            return 1
    else:
        value = compiled.ctypes_function(opts.entry, _CTYPES[opts.result])()
        flush_c_stdio()
    if opts.result != "void":
        stdout.write(format_result(value, opts.result))
    stdout.flush()
    return 0


def _guarded_call(compiled: Any, opts: RunOptions) -> tuple[bool, Any]:
    """Call the entry through its guard: whether a check failed, and the result."""
    restype = _CTYPES[opts.result]
    out = (restype or ctypes.c_int8)()
    guard = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p)(compiled.guarded_address(opts.entry))
    failed = guard(ctypes.addressof(out)) != 0
    return failed, out.value if restype is not None else None


def _internal_error(exc: BaseException, opts: RunOptions, stderr: TextIO) -> int:
    stderr.write(f"mlkit-run: internal error: {type(exc).__name__}: {exc}\n")
    if opts.show_traceback or os.environ.get(TRACEBACK_ENV):
        import traceback

        traceback.print_exception(exc, file=stderr)
    else:
        stderr.write(f"(set {TRACEBACK_ENV}=1 or pass --mlkit-traceback to see the traceback)\n")
    return 1
