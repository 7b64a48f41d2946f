"""``gpu-to-llvm`` against upstream MLIR: the same programs through upstream's
pass and through mlkit's, both normalised by upstream ``canonicalize,cse``,
print the same IR; mlkit's output parses in upstream."""

from __future__ import annotations

import pytest
from upstream_oracle import mlkit_print, upstream_print

PASS = "builtin.module(gpu-to-llvm)"
NORMALISE = "builtin.module(canonicalize,cse)"

HEADER = """module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
"""

CASES: dict[str, str] = {
    "alloc_async_dynamic": """
  func.func @f(%n: index) {
    %t0 = gpu.wait async
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    %t2 = gpu.dealloc async [%t1] %m : memref<?xf32>
    gpu.wait [%t2]
    return
  }""",
    "alloc_host_shared": """
  func.func @f(%n: index) {
    %m = gpu.alloc host_shared (%n) : memref<?xf32>
    %t0 = gpu.wait async
    %t1 = gpu.dealloc async [%t0] %m : memref<?xf32>
    gpu.wait [%t1]
    return
  }""",
    "alloc_static_2d": """
  func.func @f() -> memref<2x3xf32> {
    %t0 = gpu.wait async
    %m, %t = gpu.alloc async [%t0] () : memref<2x3xf32>
    gpu.wait [%t]
    return %m : memref<2x3xf32>
  }""",
    "alloc_mixed_sync": """
  func.func @f(%n: index) -> memref<4x?x?xi16> {
    %m = gpu.alloc (%n, %n) : memref<4x?x?xi16>
    return %m : memref<4x?x?xi16>
  }""",
    "alloc_async_no_deps": """
  func.func @f() -> memref<4xf32> {
    %m, %t = gpu.alloc async () : memref<4xf32>
    return %m : memref<4xf32>
  }""",
    "alloc_memory_space": """
  func.func @f(%n: index) -> memref<?x3xi8, 1> {
    %t0 = gpu.wait async
    %m, %t = gpu.alloc async [%t0] (%n) : memref<?x3xi8, 1>
    gpu.wait [%t]
    return %m : memref<?x3xi8, 1>
  }""",
    "alloc_unused": """
  func.func @f() {
    %m = gpu.alloc () : memref<4xf32>
    return
  }""",
    "alloc_left_alone": """
  func.func @f() -> (memref<2x3xf32, strided<[3, 1], offset: 2>>, memref<4xf32>, memref<3xi32>) {
    %t0 = gpu.wait async
    %m, %t = gpu.alloc async [%t0] () : memref<2x3xf32, strided<[3, 1], offset: 2>>
    %h, %t1 = gpu.alloc async [%t] host_shared () : memref<4xf32>
    %t2 = gpu.wait async
    %a, %t3 = gpu.alloc async [%t0, %t2] () : memref<3xi32>
    gpu.wait [%t1, %t3]
    return %m, %h, %a : memref<2x3xf32, strided<[3, 1], offset: 2>>, memref<4xf32>, memref<3xi32>
  }""",
    "dealloc_sync_and_no_deps": """
  func.func @f(%a: memref<3xi32>, %b: memref<?xf32>) {
    gpu.dealloc %a : memref<3xi32>
    %t = gpu.dealloc async %b : memref<?xf32>
    gpu.wait [%t]
    return
  }""",
    "dealloc_two_deps_left_alone": """
  func.func @f(%a: memref<3xi32>) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %t = gpu.dealloc async [%t0, %t1] %a : memref<3xi32>
    gpu.wait [%t]
    return
  }""",
    "memcpy_static": """
  func.func @f(%dst: memref<7xf32, 1>, %src: memref<7xf32>) {
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %dst, %src : memref<7xf32, 1>, memref<7xf32>
    gpu.wait [%t1]
    return
  }""",
    "memcpy_dynamic_3d": """
  func.func @f(%a: memref<?x?x?xf64>, %b: memref<?x?x?xf64, 3>) {
    %t0 = gpu.wait async
    %t = gpu.memcpy async [%t0] %a, %b : memref<?x?x?xf64>, memref<?x?x?xf64, 3>
    gpu.wait [%t]
    return
  }""",
    "memcpy_rank0_and_strided_dst": """
  func.func @f(%a: memref<f32>, %b: memref<f32>, %c: memref<4xf32, strided<[2]>>, %d: memref<4xf32>) {
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %a, %b : memref<f32>, memref<f32>
    %t2 = gpu.memcpy async [%t1] %c, %d : memref<4xf32, strided<[2]>>, memref<4xf32>
    gpu.wait [%t2]
    return
  }""",
    "memcpy_sync_left_alone": """
  func.func @f(%a: memref<4xf32>) {
    gpu.memcpy %a, %a : memref<4xf32>, memref<4xf32>
    return
  }""",
    "memcpy_two_deps_left_alone": """
  func.func @f(%a: memref<4xf32>) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async
    %t2 = gpu.memcpy async [%t0, %t1] %a, %a : memref<4xf32>, memref<4xf32>
    gpu.wait [%t2]
    return
  }""",
    "memcpy_no_deps_left_alone": """
  func.func @f(%a: memref<4xf32>) {
    %t = gpu.memcpy async %a, %a : memref<4xf32>, memref<4xf32>
    gpu.wait [%t]
    return
  }""",
    "memcpy_strided_source_left_alone": """
  func.func @f(%a: memref<4xf32, strided<[2]>>) {
    %t0 = gpu.wait async
    %t1 = gpu.memcpy async [%t0] %a, %a : memref<4xf32, strided<[2]>>, memref<4xf32, strided<[2]>>
    gpu.wait [%t1]
    return
  }""",
    "memset_32": """
  func.func @f(%dst: memref<7xf32, 1>, %v: f32, %i: memref<?x5xi32>, %w: i32) {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %dst, %v : memref<7xf32, 1>, f32
    %t2 = gpu.memset async [%t1] %i, %w : memref<?x5xi32>, i32
    gpu.wait [%t2]
    return
  }""",
    "memset_16": """
  func.func @f(%a: memref<?x?xf16>, %v: f16, %b: memref<8xi16>, %w: i16, %c: memref<2xbf16>, %x: bf16) {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %a, %v : memref<?x?xf16>, f16
    %t2 = gpu.memset async [%t1] %b, %w : memref<8xi16>, i16
    %t3 = gpu.memset async [%t2] %c, %x : memref<2xbf16>, bf16
    gpu.wait [%t3]
    return
  }""",
    "memset_f64_left_alone": """
  func.func @f(%a: memref<4xf64>, %v: f64) {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %a, %v : memref<4xf64>, f64
    gpu.wait [%t1]
    return
  }""",
    "memset_i8_left_alone": """
  func.func @f(%a: memref<4xi8>, %v: i8) {
    %t0 = gpu.wait async
    %t1 = gpu.memset async [%t0] %a, %v : memref<4xi8>, i8
    gpu.wait [%t1]
    return
  }""",
    "memset_sync_left_alone": """
  func.func @f(%a: memref<4xi32>, %v: i32) {
    gpu.memset %a, %v : memref<4xi32>, i32
    return
  }""",
    "wait_chain": """
  func.func @f() {
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0]
    %t2 = gpu.wait async [%t0, %t1]
    gpu.wait [%t0, %t1, %t2]
    gpu.wait
    return
  }""",
    "wait_on_events": """
  func.func @f(%e: !gpu.async.token, %g: !gpu.async.token) -> !gpu.async.token {
    %t = gpu.wait async [%e]
    gpu.wait [%g]
    return %t : !gpu.async.token
  }""",
    "wait_unused_stream": """
  func.func @f() {
    %t = gpu.wait async
    return
  }""",
    "launch_async": """
  func.func @f(%c1: index) {
    %t0 = gpu.wait async
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t1]
    %t2 = gpu.launch_func async @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t2]
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }""",
    "launch_multiple_deps": """
  func.func @f(%c1: index, %e: !gpu.async.token) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0]
    %t2 = gpu.wait async
    %t3 = gpu.launch_func async [%t0, %t1, %t2, %e] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t3]
    return
  }""",
    "launch_async_object_dropped": """
  func.func @f(%c1: index, %s: !llvm.ptr) {
    gpu.launch_func <%s : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }""",
    "launch_llvm_typed_unchanged": """
  func.func @f(%c1: i64, %s: !llvm.ptr) {
    gpu.launch_func <%s : !llvm.ptr> @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) : i64
    return
  }""",
    "host_register": """
  func.func @f(%a: memref<3x4xf32>, %b: memref<*xi1>, %c: memref<*xf64>) {
    %u = memref.cast %a : memref<3x4xf32> to memref<*xf32>
    gpu.host_register %u : memref<*xf32>
    gpu.host_unregister %u : memref<*xf32>
    gpu.host_register %b : memref<*xi1>
    gpu.host_unregister %c : memref<*xf64>
    return
  }""",
    "set_default_device": """
  func.func @f(%i: i32) {
    gpu.set_default_device %i
    return
  }""",
    "token_through_scf_if": """
  func.func @f(%c: i1) {
    %t0 = gpu.wait async
    %r = scf.if %c -> !gpu.async.token {
      %t1 = gpu.wait async [%t0]
      scf.yield %t1 : !gpu.async.token
    } else {
      scf.yield %t0 : !gpu.async.token
    }
    gpu.wait [%r]
    return
  }""",
    "token_through_call": """
  func.func private @g(!gpu.async.token) -> !gpu.async.token
  func.func @f() {
    %t0 = gpu.wait async
    %t1 = func.call @g(%t0) : (!gpu.async.token) -> !gpu.async.token
    %t2 = gpu.wait async [%t1]
    gpu.wait [%t2]
    return
  }""",
}


def program(name: str) -> str:
    return HEADER + CASES[name] + "\n}\n"


@pytest.mark.parametrize("name", sorted(CASES))
def test_same_as_upstream(name: str) -> None:
    text = program(name)
    mine = mlkit_print(text, pipeline=PASS)
    expected = upstream_print(text, pipeline=PASS, generic=False)
    # mlkit's output is upstream IR, and normalises to upstream's own result
    assert upstream_print(mine, pipeline=NORMALISE, generic=False) == upstream_print(
        expected, pipeline=NORMALISE, generic=False
    ), mine


@pytest.mark.parametrize("name", ["alloc_async_dynamic", "wait_chain", "launch_multiple_deps",
                                  "memcpy_dynamic_3d", "memset_16"])
def test_order_of_runtime_calls(name: str) -> None:
    """The calls come in upstream's order, declared in upstream's order:
    compared before any normalisation, as the sequence of callees."""
    text = program(name)

    def callees(printed: str) -> list[str]:
        return [line.split("@")[1].split("(")[0] for line in printed.splitlines()
                if "llvm.call @" in line or "llvm.func @mgpu" in line]

    mine = upstream_print(mlkit_print(text, pipeline=PASS), generic=False)
    assert callees(mine) == callees(upstream_print(text, pipeline=PASS, generic=False))
    assert callees(mine)
