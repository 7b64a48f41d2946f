"""The runner utils that are compiled, not called back into Python: LLVM IR
for upstream's CRunnerUtils scalar printers, timers, allocation wrappers and
``memrefCopy``.

They go through C's own stdio (``fprintf``/``fputs`` on ``stdout``), exactly
as upstream's do, so they interleave with ``printf`` from compiled code and
print numbers with the C library's ``%g``. They are LLVM IR rather than
Python callbacks because they sit in hot loops (``memrefCopy`` after
bufferization, ``printF32`` in ``vector.print`` lowerings), where a ctypes
callback costs microseconds per call; LLVM IR needs no C compiler at run
time, only llvmlite. Only the functions a module actually declares are
emitted, so a module that defines one of these names itself keeps its own.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable

# Where the C library keeps its FILE pointers (glibc and musl: stdout/stderr).
_STREAMS = ("__stdoutp", "__stderrp") if sys.platform == "darwin" else ("stdout", "stderr")

_PRELUDE = f"@{_STREAMS[0]} = external global ptr\n@{_STREAMS[1]} = external global ptr\n"

# declaration name -> text; only those some emitted function uses are written
_DECLARATIONS: dict[str, str] = {
    "fprintf": "declare i32 @fprintf(ptr, ptr, ...)",
    "fputs": "declare i32 @fputs(ptr, ptr)",
    "fputc": "declare i32 @fputc(i32, ptr)",
    "gettimeofday": "declare i32 @gettimeofday(ptr, ptr)",
    "clock_gettime": "declare i32 @clock_gettime(i32, ptr)",
    "malloc": "declare ptr @malloc(i64)",
    "aligned_alloc": "declare ptr @aligned_alloc(i64, i64)",
    "free": "declare void @free(ptr)",
    "llvm.memcpy": "declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)",
    "llvm.memset": "declare void @llvm.memset.p0.i64(ptr, i8, i64, i1)",
}


def _cstring(name: str, text: str) -> str:
    data = text.encode() + b"\0"
    body = "".join(chr(b) if 32 <= b < 127 and b not in (34, 92) else f"\\{b:02X}" for b in data)
    return f'@{name} = private unnamed_addr constant [{len(data)} x i8] c"{body}"'


def _print_format(name: str, c_type: str, fmt: str, convert: str = "") -> tuple[str, list[str]]:
    """``void name(c_type v)`` doing ``fprintf(stdout, fmt, v)``."""
    fmt_name = f".mlkit.fmt.{name}"
    value = "%v"
    arg_type = c_type
    if convert:
        value, arg_type = "%c", "double"
    body = f"""\
{_cstring(fmt_name, fmt)}
define void @{name}({c_type} %v) {{
{f"  %c = {convert} {c_type} %v to double" if convert else ""}
  %f = load ptr, ptr @{_STREAMS[0]}
  %r = call i32 (ptr, ptr, ...) @fprintf(ptr %f, ptr @{fmt_name}, {arg_type} {value})
  ret void
}}"""
    return body, ["fprintf"]


def _print_text(name: str, text: str) -> tuple[str, list[str]]:
    """``void name()`` doing ``fputs(text, stdout)``."""
    str_name = f".mlkit.str.{name}"
    body = f"""\
{_cstring(str_name, text)}
define void @{name}() {{
  %f = load ptr, ptr @{_STREAMS[0]}
  %r = call i32 @fputs(ptr @{str_name}, ptr %f)
  ret void
}}"""
    return body, ["fputs"]


def _print_string(name: str) -> tuple[str, list[str]]:
    body = f"""\
define void @{name}(ptr %s) {{
  %f = load ptr, ptr @{_STREAMS[0]}
  %r = call i32 @fputs(ptr %s, ptr %f)
  ret void
}}"""
    return body, ["fputs"]


_PRINT_NEWLINE = """\
define void @printNewline() {
  %f = load ptr, ptr @STDOUT
  %r = call i32 @fputc(i32 10, ptr %f)
  ret void
}"""

_PRINT_FLOPS = """\
@.mlkit.fmt.printFlops = private unnamed_addr constant [12 x i8] c"%lf GFLOPS\\0A\\00"
define void @printFlops(double %flops) {
  %g = fdiv double %flops, 1.000000e+09
  %f = load ptr, ptr @STDERR
  %r = call i32 (ptr, ptr, ...) @fprintf(ptr %f, ptr @.mlkit.fmt.printFlops, double %g)
  ret void
}"""

_RTCLOCK = """\
define double @rtclock() {
  %tv = alloca { i64, i64 }, align 8
  %r = call i32 @gettimeofday(ptr %tv, ptr null)
  %sec = load i64, ptr %tv
  %usec.p = getelementptr inbounds { i64, i64 }, ptr %tv, i32 0, i32 1
  %usec = load i64, ptr %usec.p
  %s = sitofp i64 %sec to double
  %u = sitofp i64 %usec to double
  %us = fmul double %u, 1.000000e-06
  %t = fadd double %s, %us
  ret double %t
}"""


def _nano_time(name: str) -> tuple[str, list[str]]:
    body = f"""\
define i64 @{name}() {{
  %ts = alloca {{ i64, i64 }}, align 8
  %r = call i32 @clock_gettime(i32 0, ptr %ts)
  %sec = load i64, ptr %ts
  %ns.p = getelementptr inbounds {{ i64, i64 }}, ptr %ts, i32 0, i32 1
  %ns = load i64, ptr %ns.p
  %s = mul i64 %sec, 1000000000
  %t = add i64 %s, %ns
  ret i64 %t
}}"""
    return body, ["clock_gettime"]


_ALLOC = """\
define ptr @mlirAlloc(i64 %size) {
  %p = call ptr @malloc(i64 %size)
  ret ptr %p
}"""
_ALIGNED_ALLOC = """\
define ptr @mlirAlignedAlloc(i64 %alignment, i64 %size) {
  %p = call ptr @aligned_alloc(i64 %alignment, i64 %size)
  ret ptr %p
}"""


def _free(name: str) -> tuple[str, list[str]]:
    return f"define void @{name}(ptr %p) {{\n  call void @free(ptr %p)\n  ret void\n}}", ["free"]


# memrefCopy(elemSize, UnrankedMemRefType *src, UnrankedMemRefType *dst), as
# upstream's CRunnerUtils: nothing for an empty shape; one memcpy when both
# sides are dense row-major (size-1 dimensions ignored); otherwise upstream's
# odometer walk over the source sizes, one element at a time.
_MEMREF_COPY = """\
define void @memrefCopy(i64 %esize, ptr %src, ptr %dst) {
entry:
  %rank = load i64, ptr %src
  %sd.p = getelementptr inbounds i8, ptr %src, i64 8
  %sd = load ptr, ptr %sd.p
  %dd.p = getelementptr inbounds i8, ptr %dst, i64 8
  %dd = load ptr, ptr %dd.p
  %s.data.p = getelementptr inbounds i64, ptr %sd, i64 1
  %s.data = load ptr, ptr %s.data.p
  %s.off.p = getelementptr inbounds i64, ptr %sd, i64 2
  %s.off = load i64, ptr %s.off.p
  %d.data.p = getelementptr inbounds i64, ptr %dd, i64 1
  %d.data = load ptr, ptr %d.data.p
  %d.off.p = getelementptr inbounds i64, ptr %dd, i64 2
  %d.off = load i64, ptr %d.off.p
  %s.sizes = getelementptr inbounds i64, ptr %sd, i64 3
  %s.strides = getelementptr inbounds i64, ptr %s.sizes, i64 %rank
  %d.sizes = getelementptr inbounds i64, ptr %dd, i64 3
  %d.strides = getelementptr inbounds i64, ptr %d.sizes, i64 %rank
  %s.boff = mul i64 %s.off, %esize
  %srcp = getelementptr i8, ptr %s.data, i64 %s.boff
  %d.boff = mul i64 %d.off, %esize
  %dstp = getelementptr i8, ptr %d.data, i64 %d.boff
  br label %scan
scan:
  %ax = phi i64 [ %rank, %entry ], [ %i, %scan.cont ]
  %expect = phi i64 [ 1, %entry ], [ %expect.next, %scan.cont ]
  %contig = phi i1 [ true, %entry ], [ %contig.next, %scan.cont ]
  %more = icmp sgt i64 %ax, 0
  br i1 %more, label %scan.body, label %scanned
scan.body:
  %i = sub i64 %ax, 1
  %sz.p = getelementptr inbounds i64, ptr %s.sizes, i64 %i
  %sz = load i64, ptr %sz.p
  %empty = icmp eq i64 %sz, 0
  br i1 %empty, label %done, label %scan.cont
scan.cont:
  %ss.p = getelementptr inbounds i64, ptr %s.strides, i64 %i
  %ss = load i64, ptr %ss.p
  %ds.p = getelementptr inbounds i64, ptr %d.strides, i64 %i
  %ds = load i64, ptr %ds.p
  %c1 = icmp eq i64 %ss, %expect
  %c2 = icmp eq i64 %ds, %expect
  %c12 = and i1 %c1, %c2
  %unit = icmp eq i64 %sz, 1
  %ok = or i1 %c12, %unit
  %contig.next = and i1 %contig, %ok
  %expect.next = mul i64 %expect, %sz
  br label %scan
scanned:
  br i1 %contig, label %fast, label %slow
fast:
  %bytes = mul i64 %expect, %esize
  call void @llvm.memcpy.p0.p0.i64(ptr %dstp, ptr %srcp, i64 %bytes, i1 false)
  ret void
slow:
  %nb = mul i64 %rank, 8
  %idx = alloca i64, i64 %rank, align 8
  call void @llvm.memset.p0.i64(ptr %idx, i8 0, i64 %nb, i1 false)
  %rpos = alloca i64, align 8
  %wpos = alloca i64, align 8
  store i64 0, ptr %rpos
  store i64 0, ptr %wpos
  %last = sub i64 %rank, 1
  br label %copy
copy:
  %r = load i64, ptr %rpos
  %w = load i64, ptr %wpos
  %from = getelementptr i8, ptr %srcp, i64 %r
  %to = getelementptr i8, ptr %dstp, i64 %w
  call void @llvm.memcpy.p0.p0.i64(ptr %to, ptr %from, i64 %esize, i1 false)
  br label %adv
adv:
  %axis = phi i64 [ %last, %copy ], [ %axis.up, %carry ]
  %ip = getelementptr inbounds i64, ptr %idx, i64 %axis
  %iv = load i64, ptr %ip
  %iv1 = add i64 %iv, 1
  store i64 %iv1, ptr %ip
  %sst.p = getelementptr inbounds i64, ptr %s.strides, i64 %axis
  %sst = load i64, ptr %sst.p
  %sstep = mul i64 %sst, %esize
  %dst.p = getelementptr inbounds i64, ptr %d.strides, i64 %axis
  %dstv = load i64, ptr %dst.p
  %dstep = mul i64 %dstv, %esize
  %r0 = load i64, ptr %rpos
  %r1 = add i64 %r0, %sstep
  store i64 %r1, ptr %rpos
  %w0 = load i64, ptr %wpos
  %w1 = add i64 %w0, %dstep
  store i64 %w1, ptr %wpos
  %asz.p = getelementptr inbounds i64, ptr %s.sizes, i64 %axis
  %asz = load i64, ptr %asz.p
  %cont = icmp ne i64 %asz, %iv1
  br i1 %cont, label %copy, label %wrap
wrap:
  %at0 = icmp eq i64 %axis, 0
  br i1 %at0, label %done, label %carry
carry:
  store i64 0, ptr %ip
  %back.s = mul i64 %asz, %sstep
  %r2 = sub i64 %r1, %back.s
  store i64 %r2, ptr %rpos
  %dsz.p = getelementptr inbounds i64, ptr %d.sizes, i64 %axis
  %dsz = load i64, ptr %dsz.p
  %back.d = mul i64 %dsz, %dstep
  %w2 = sub i64 %w1, %back.d
  store i64 %w2, ptr %wpos
  %axis.up = sub i64 %axis, 1
  br label %adv
done:
  ret void
}"""


def _functions() -> dict[str, tuple[str, list[str]]]:
    """symbol -> (LLVM IR defining it, the declarations it needs)."""
    table: dict[str, tuple[str, list[str]]] = {
        "printI64": _print_format("printI64", "i64", "%ld"),
        "printU64": _print_format("printU64", "i64", "%lu"),
        "printF32": _print_format("printF32", "float", "%g", convert="fpext"),
        "printF64": _print_format("printF64", "double", "%lg"),
        "printOpen": _print_text("printOpen", "( "),
        "printClose": _print_text("printClose", " )"),
        "printComma": _print_text("printComma", ", "),
        "printString": _print_string("printString"),
        "printCString": _print_string("printCString"),
        "printNewline": (_PRINT_NEWLINE, ["fputc"]),
        "printFlops": (_PRINT_FLOPS, ["fprintf"]),
        "rtclock": (_RTCLOCK, ["gettimeofday"]),
        "nanoTime": _nano_time("nanoTime"),
        "_mlir_ciface_nanoTime": _nano_time("_mlir_ciface_nanoTime"),
        "mlirAlloc": (_ALLOC, ["malloc"]),
        "mlirAlignedAlloc": (_ALIGNED_ALLOC, ["aligned_alloc"]),
        "mlirFree": _free("mlirFree"),
        "mlirAlignedFree": _free("mlirAlignedFree"),
        "memrefCopy": (_MEMREF_COPY, ["llvm.memcpy", "llvm.memset"]),
    }
    return table


NATIVE_FUNCTIONS: frozenset[str] = frozenset(_functions())


def native_module_ir(names: Iterable[str]) -> str | None:
    """LLVM IR defining the native runner utils among ``names`` (None if none)."""
    table = _functions()
    wanted = sorted(set(names) & table.keys())
    if not wanted:
        return None
    declarations: set[str] = set()
    bodies: list[str] = []
    for name in wanted:
        body, needs = table[name]
        bodies.append(body.replace("@STDOUT", f"@{_STREAMS[0]}").replace("@STDERR", f"@{_STREAMS[1]}"))
        declarations.update(needs)
    head = [_PRELUDE.rstrip("\n")]
    head += [_DECLARATIONS[d] for d in sorted(declarations)]
    return "\n".join(head) + "\n\n" + "\n\n".join(bodies) + "\n"
