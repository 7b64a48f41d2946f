"""``convert-vector-to-llvm`` against upstream MLIR: the same IR on 1-D
vectors and memrefs, and the same numbers in upstream's ExecutionEngine for
n-D vectors, where upstream's vector-to-vector pre-lowerings shape the IR
differently."""

from __future__ import annotations

import ctypes
import re
from pathlib import Path

import pytest
from upstream_oracle import ir, mlkit_print, upstream_print

PASS = "builtin.module(convert-vector-to-llvm)"
VECTOR_OP = re.compile(r"(?<![\w.])vector\.\w+")
LIT = Path(__file__).parent.parent / "lit_tests" / "Conversion" / "VectorToLLVM" / "vector-to-llvm.mlir"

ONE_D = """
func.func @f(%a: f32, %v: vector<4xf32>, %w: vector<1xf32>, %iv: vector<4xi32>, %acc: f32,
             %iacc: i32, %i: index, %m: memref<?x8xf32>, %n: memref<16xi8>, %h: vector<8xf16>)
    -> (vector<4xf32>, vector<4xf32>, f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>,
        vector<4xi32>, vector<8xf32>, vector<4xf32>, vector<16xi8>, vector<8xf16>) {
  %0 = vector.broadcast %a : f32 to vector<4xf32>
  %1 = vector.broadcast %w : vector<1xf32> to vector<4xf32>
  %2 = vector.extract %v[3] : f32 from vector<4xf32>
  %3 = vector.extract %v[%i] : f32 from vector<4xf32>
  %4 = vector.insert %a, %v[0] : f32 into vector<4xf32>
  %5 = vector.insert %a, %v[%i] : f32 into vector<4xf32>
  %6 = vector.fma %v, %v, %v : vector<4xf32>
  %7 = vector.bitcast %v : vector<4xf32> to vector<4xi32>
  %8 = vector.shuffle %v, %v [7, 0, 1, 2, 3, 4, 5, 6] : vector<4xf32>, vector<4xf32>
  %9 = vector.load %m[%i, %i] : memref<?x8xf32>, vector<4xf32>
  vector.store %9, %m[%i, %i] : memref<?x8xf32>, vector<4xf32>
  %10 = vector.load %n[%i] : memref<16xi8>, vector<16xi8>
  %11 = vector.bitcast %10 : vector<16xi8> to vector<8xf16>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11
    : vector<4xf32>, vector<4xf32>, f32, f32, vector<4xf32>, vector<4xf32>, vector<4xf32>,
      vector<4xi32>, vector<8xf32>, vector<4xf32>, vector<16xi8>, vector<8xf16>
}
"""

KINDS_F = ["add", "mul", "minnumf", "maxnumf", "minimumf", "maximumf"]
KINDS_I = ["add", "mul", "and", "or", "xor", "minsi", "maxsi", "minui", "maxui"]


def _reductions() -> str:
    lines, names, types = [], [], []
    for kind in KINDS_F:
        for acc in ("", ", %acc"):
            lines.append(f"  %f{kind}{len(acc)} = vector.reduction <{kind}>, %v{acc} fastmath<nnan> : vector<4xf32> into f32")
            names.append(f"%f{kind}{len(acc)}")
            types.append("f32")
    for kind in KINDS_I:
        for acc in ("", ", %iacc"):
            lines.append(f"  %i{kind}{len(acc)} = vector.reduction <{kind}>, %iv{acc} : vector<4xi64> into i64")
            names.append(f"%i{kind}{len(acc)}")
            types.append("i64")
    return (
        f"func.func @r(%v: vector<4xf32>, %iv: vector<4xi64>, %acc: f32, %iacc: i64) -> ({', '.join(types)}) {{\n"
        + "\n".join(lines) + f"\n  return {', '.join(names)} : {', '.join(types)}\n}}\n"
    )


@pytest.mark.parametrize(
    "pipeline",
    [PASS, "builtin.module(convert-vector-to-llvm{reassociate-fp-reductions use-vector-alignment})"],
)
@pytest.mark.parametrize("text", [ONE_D, _reductions()], ids=["one_d", "reductions"])
def test_same_ir_as_upstream(text: str, pipeline: str) -> None:
    ours = mlkit_print(text, pipeline=pipeline)
    assert not VECTOR_OP.search(ours)
    assert upstream_print(ours) == upstream_print(text, pipeline=pipeline)


def test_lit_output_parses_in_upstream() -> None:
    for chunk in LIT.read_text().split("// -----"):
        upstream_print(mlkit_print(chunk, pipeline=PASS))


# ---- semantics ----------------------------------------------------------------

N = 8
KERNELS = {
    # name: body over %x (vector<2x4xf32>, the 8 inputs) giving %y (vector<2x4xf32>)
    "broadcast_row": "%r = vector.extract %x[1] : vector<4xf32> from vector<2x4xf32>\n"
                     "%y = vector.broadcast %r : vector<4xf32> to vector<2x4xf32>",
    "broadcast_stretch": "%c = vector.shuffle %x, %x [1, 0] : vector<2x4xf32>, vector<2x4xf32>\n"
                         "%e0 = vector.extract %c[0, 2] : f32 from vector<2x4xf32>\n"
                         "%e1 = vector.extract %c[1, 3] : f32 from vector<2x4xf32>\n"
                         "%b = vector.broadcast %e0 : f32 to vector<2x1xf32>\n"
                         "%b1 = vector.insert %e1, %b[1, 0] : f32 into vector<2x1xf32>\n"
                         "%y = vector.broadcast %b1 : vector<2x1xf32> to vector<2x4xf32>",
    "broadcast_unit_lead": "%r = vector.extract %x[1] : vector<4xf32> from vector<2x4xf32>\n"
                           "%b = vector.broadcast %r : vector<4xf32> to vector<1x4xf32>\n"
                           "%y = vector.broadcast %b : vector<1x4xf32> to vector<2x4xf32>",
    "fma": "%y = vector.fma %x, %x, %x : vector<2x4xf32>",
    "insert_extract": "%a = vector.extract %x[0, 1] : f32 from vector<2x4xf32>\n"
                      "%y = vector.insert %a, %x[1, 2] : f32 into vector<2x4xf32>",
    "shuffle_rows": "%y = vector.shuffle %x, %x [3, 0] : vector<2x4xf32>, vector<2x4xf32>",
    "bitcast_roundtrip": "%i = vector.bitcast %x : vector<2x4xf32> to vector<2x4xi32>\n"
                         "%y = vector.bitcast %i : vector<2x4xi32> to vector<2x4xf32>",
    "reduce_rows": "%r0 = vector.extract %x[0] : vector<4xf32> from vector<2x4xf32>\n"
                   "%r1 = vector.extract %x[1] : vector<4xf32> from vector<2x4xf32>\n"
                   "%s = vector.reduction <add>, %r0 : vector<4xf32> into f32\n"
                   "%t = vector.reduction <maximumf>, %r1, %s : vector<4xf32> into f32\n"
                   "%y = vector.broadcast %t : f32 to vector<2x4xf32>",
}  # fmt: skip

ARRAY = "!llvm.array<2 x vector<4xf32>>"
DESC = "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>"


def _kernel(body: str) -> str:
    """Load the 8 floats as a vector<2x4xf32>, run ``body``, store %y; plus a
    memref kernel that copies through vector.load/store on a descriptor."""
    return f"""
llvm.func @_mlir_ciface_k(%p: !llvm.ptr, %q: !llvm.ptr) {{
  %v = llvm.load %p {{alignment = 4 : i64}} : !llvm.ptr -> {ARRAY}
  %x = builtin.unrealized_conversion_cast %v : {ARRAY} to vector<2x4xf32>
{body}
  %o = builtin.unrealized_conversion_cast %y : vector<2x4xf32> to {ARRAY}
  llvm.store %o, %q {{alignment = 4 : i64}} : {ARRAY}, !llvm.ptr
  llvm.return
}}
"""


def _run(llvm_text: str, name: str, inputs: list[float]) -> list[float]:
    from torch_mlir import passmanager
    from torch_mlir.execution_engine import ExecutionEngine

    with ir.Context():
        module = ir.Module.parse(llvm_text)
        passmanager.PassManager.parse(
            "builtin.module(convert-ub-to-llvm,convert-arith-to-llvm,reconcile-unrealized-casts)"
        ).run(module.operation)
        engine = ExecutionEngine(module, opt_level=0)
        src = (ctypes.c_float * N)(*inputs)
        dst = (ctypes.c_float * N)()
        engine.invoke(name, ctypes.pointer(ctypes.c_void_p(ctypes.addressof(src))),
                      ctypes.pointer(ctypes.c_void_p(ctypes.addressof(dst))))  # fmt: skip
        return list(dst)


INPUTS = [1.5, -2.0, 3.25, 0.5, 7.0, -1.0, 2.0, 4.5]


@pytest.mark.parametrize("name", sorted(KERNELS))
def test_nd_runs_like_upstream(name: str) -> None:
    body = "\n".join("  " + line for line in KERNELS[name].splitlines())
    text = _kernel(body)
    ours = mlkit_print(text, pipeline=PASS)
    assert not VECTOR_OP.search(ours)
    got = _run(ours, "k", INPUTS)
    assert got == _run(upstream_print(text, pipeline=PASS), "k", INPUTS)
    assert got != [0.0] * N


def test_load_store_through_descriptor_runs_like_upstream() -> None:
    """vector.load/store on a strided memref view (offset 2, stride 1) built
    from raw pointers: reads elements 2..5, writes them back reversed at 0."""
    text = f"""
llvm.func @_mlir_ciface_m(%p: !llvm.ptr, %q: !llvm.ptr) {{
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  %c6 = llvm.mlir.constant(6 : i64) : i64
  %u = llvm.mlir.poison : {DESC}
  %d0 = llvm.insertvalue %p, %u[0] : {DESC}
  %d1 = llvm.insertvalue %p, %d0[1] : {DESC}
  %d2 = llvm.insertvalue %c2, %d1[2] : {DESC}
  %d3 = llvm.insertvalue %c6, %d2[3, 0] : {DESC}
  %d4 = llvm.insertvalue %c1, %d3[4, 0] : {DESC}
  %m = builtin.unrealized_conversion_cast %d4 : {DESC} to memref<6xf32, strided<[1], offset: ?>>
  %e0 = llvm.insertvalue %q, %u[0] : {DESC}
  %e1 = llvm.insertvalue %q, %e0[1] : {DESC}
  %e2 = llvm.insertvalue %c0, %e1[2] : {DESC}
  %e3 = llvm.insertvalue %c6, %e2[3, 0] : {DESC}
  %e4 = llvm.insertvalue %c1, %e3[4, 0] : {DESC}
  %n = builtin.unrealized_conversion_cast %e4 : {DESC} to memref<6xf32, strided<[1], offset: ?>>
  %i0 = builtin.unrealized_conversion_cast %c0 : i64 to index
  %v = vector.load %m[%i0] : memref<6xf32, strided<[1], offset: ?>>, vector<4xf32>
  %r = vector.shuffle %v, %v [3, 2, 1, 0] : vector<4xf32>, vector<4xf32>
  vector.store %r, %n[%i0] : memref<6xf32, strided<[1], offset: ?>>, vector<4xf32>
  llvm.return
}}
"""
    ours = mlkit_print(text, pipeline=PASS)
    assert not VECTOR_OP.search(ours)
    got = _run(ours, "m", INPUTS)
    assert got == _run(upstream_print(text, pipeline=PASS), "m", INPUTS)
    assert got[:4] == [INPUTS[5], INPUTS[4], INPUTS[3], INPUTS[2]]
