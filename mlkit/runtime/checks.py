"""Failed runtime checks that stop the call instead of the process.

A check that ``generate-runtime-verification`` inserts fails, once lowered,
as upstream's does: ``puts`` of its message, then ``abort``. With runtime
checks on, the JIT renames those two declarations of the program (after
LLVM has optimized it) to the functions here:

- ``_mlkit_check_puts`` prints the message as ``puts`` would and remembers
  it for the calling thread;
- ``_mlkit_check_abort`` jumps back (``_longjmp``) to the guard the calling
  thread set, and calls the real ``abort`` where there is none.

A guard is a wrapper the JIT adds for each function, ``@_mlkit_guarded.<name>``:
the function's own parameters, then a pointer its result is stored through;
it returns 0, or 1 after a failed check. It sets its ``_setjmp`` buffer as
the thread's guard for the call (restoring the previous one after, so
guarded calls nest), so the caller gets control back, and the message with
:func:`last_message`. What the aborted call had allocated is not freed.

The thread's guard and message live in pthread keys (MCJIT handles
thread-local variables poorly), in LLVM IR compiled once per process.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Any

REDIRECTS = {"puts": "_mlkit_check_puts", "abort": "_mlkit_check_abort"}
GUARD_PREFIX = "_mlkit_guarded."
JMP_BUF_BYTES = 512  # glibc x86-64: 200, aarch64: 312; macOS arm64: 192

_IR = """\
@key_guard = internal global i32 0, align 4
@key_message = internal global i32 0, align 4

declare i32 @pthread_key_create(ptr, ptr)
declare ptr @pthread_getspecific(i32)
declare i32 @pthread_setspecific(i32, ptr)
declare i32 @puts(ptr)
declare void @abort() noreturn
declare void @_longjmp(ptr, i32) noreturn

define void @_mlkit_checks_init() {
  %a = call i32 @pthread_key_create(ptr @key_guard, ptr null)
  %b = call i32 @pthread_key_create(ptr @key_message, ptr null)
  ret void
}

define ptr @_mlkit_check_swap_guard(ptr %new) {
  %k = load i32, ptr @key_guard
  %old = call ptr @pthread_getspecific(i32 %k)
  %s = call i32 @pthread_setspecific(i32 %k, ptr %new)
  ret ptr %old
}

define i32 @_mlkit_check_puts(ptr %message) {
  %k = load i32, ptr @key_message
  %s = call i32 @pthread_setspecific(i32 %k, ptr %message)
  %r = call i32 @puts(ptr %message)
  ret i32 %r
}

define ptr @_mlkit_check_message() {
  %k = load i32, ptr @key_message
  %m = call ptr @pthread_getspecific(i32 %k)
  ret ptr %m
}

define void @_mlkit_check_clear() {
  %k = load i32, ptr @key_message
  %s = call i32 @pthread_setspecific(i32 %k, ptr null)
  ret void
}

define void @_mlkit_check_abort() {
  %k = load i32, ptr @key_guard
  %guard = call ptr @pthread_getspecific(i32 %k)
  %none = icmp eq ptr %guard, null
  br i1 %none, label %die, label %back
die:
  call void @abort()
  unreachable
back:
  call void @_longjmp(ptr %guard, i32 1)
  unreachable
}
"""

ENTRY_POINTS = frozenset(
    {"_mlkit_check_swap_guard", "_mlkit_check_puts", "_mlkit_check_abort"}
)
_REQUIRED = ("pthread_key_create", "pthread_setspecific", "_longjmp", "_setjmp")
_ENGINE: list[Any] = []
_LOCK = threading.Lock()


def _engine() -> Any | None:
    """The checks' engine, compiled and initialised on first use."""
    if not _ENGINE:
        with _LOCK:
            if not _ENGINE:
                from mlkit.runtime.engine import compile_for_good

                engine = compile_for_good(_IR, 0, _REQUIRED)
                if engine is not None:
                    ctypes.CFUNCTYPE(None)(engine.get_function_address("_mlkit_checks_init"))()
                _ENGINE.append(engine)
    return _ENGINE[0]


def available() -> bool:
    """Whether failed checks can be caught here (POSIX C library with ``_setjmp``)."""
    import os

    return os.name == "posix" and _engine() is not None


def redirect(llvm_module: Any) -> None:
    """Send the (optimized) module's ``puts`` and ``abort`` to the checks'
    versions and make those resolvable."""
    import llvmlite.binding as llvm_binding

    engine = _engine()
    if engine is None:
        return
    for fn in llvm_module.functions:
        if fn.is_declaration and fn.name in REDIRECTS:
            fn.name = REDIRECTS[fn.name]
    for name in ENTRY_POINTS:
        llvm_binding.add_symbol(name, engine.get_function_address(name))


def guard_ir(llvm_module: Any, names: list[str]) -> str:
    """The guards of the functions ``names`` the module defines, as a module of their own."""
    lines = [
        "declare i32 @_setjmp(ptr) returns_twice",
        "declare ptr @_mlkit_check_swap_guard(ptr)",
    ]
    for name in names:
        fn = llvm_module.get_function(name)
        result = str(fn.global_value_type).split(" (", 1)[0]
        params = [str(a.type) for a in fn.arguments]
        typed = ", ".join(f"{t} %a{i}" for i, t in enumerate(params))  # declared and passed
        lines.append(f"declare {result} @{_quoted(name)}({', '.join(params)})")
        store = "" if result == "void" else f"  store {result} %r, ptr %out\n"
        call = (f"  call void @{_quoted(name)}({typed})\n" if result == "void"
                else f"  %r = call {result} @{_quoted(name)}({typed})\n")  # fmt: skip
        sep = ", " if typed else ""
        lines.append(
            f"define i32 @{_quoted(GUARD_PREFIX + name)}({typed}{sep}ptr %out) {{\n"
            f"  %buf = alloca [{JMP_BUF_BYTES} x i8], align 16\n"
            "  %prev = call ptr @_mlkit_check_swap_guard(ptr %buf)\n"
            "  %j = call i32 @_setjmp(ptr %buf) returns_twice\n"
            "  %ok = icmp eq i32 %j, 0\n"
            "  br i1 %ok, label %run, label %failed\n"
            f"run:\n{call}{store}"
            "  %p1 = call ptr @_mlkit_check_swap_guard(ptr %prev)\n"
            "  ret i32 0\n"
            "failed:\n"
            "  %p2 = call ptr @_mlkit_check_swap_guard(ptr %prev)\n"
            "  ret i32 1\n"
            "}"
        )
    return "\n".join(lines) + "\n"


def _quoted(name: str) -> str:
    return name if name.replace("_", "a").replace(".", "a").isalnum() else f'"{name}"'


def last_message() -> str:
    """The message of the calling thread's last failed check ('' if none)."""
    engine = _engine()
    if engine is None:
        return ""
    address = ctypes.CFUNCTYPE(ctypes.c_void_p)(engine.get_function_address("_mlkit_check_message"))()
    return ctypes.string_at(address).decode(errors="replace") if address else ""


def clear_message() -> None:
    engine = _engine()
    if engine is not None:
        ctypes.CFUNCTYPE(None)(engine.get_function_address("_mlkit_check_clear"))()


class RuntimeCheckError(RuntimeError):
    """A runtime check of a compiled function failed: the op and its location
    are in the message, as upstream prints them."""
