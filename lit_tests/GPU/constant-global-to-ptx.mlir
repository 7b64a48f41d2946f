// REQUIRES: ptxas
// A constant that bufferizes into a memref.global, used in a kernel: the
// outlining sinks its memref.get_global into the kernel and copies the
// global into the gpu.module, so the kernel reads it from device memory.
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries},convert-linalg-to-parallel-loops,gpu-tile-parallel-loops,canonicalize,func.func(gpu-map-parallel-loops{mapping-policy=innermost-first}),convert-parallel-loops-to-gpu,gpu-kernel-outlining)' | filecheck %s --check-prefix=OUTLINED
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cuda{chip=sm_90})' --emit=ptx -o %t90.ptx
// RUN: filecheck %s < %t90.ptx
// RUN: ptxas -arch=sm_90 %t90.ptx -o %t90.cubin
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cuda{chip=sm_80})' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin

// OUTLINED-LABEL: func.func @add_row(
// OUTLINED:         gpu.launch_func @add_row_kernel::@add_row_kernel
// OUTLINED-SAME:      args(%{{.*}} : memref<5x3xf32, {{.*}}>, %{{.*}} : memref<5x3xf32>)
// OUTLINED:       gpu.module @add_row_kernel {
// OUTLINED-NEXT:    memref.global "private" constant @__constant_3xf32 : memref<3xf32> = dense<[1.500000e+00, -2.000000e+00, 4.000000e+00]>
// OUTLINED:         gpu.func @add_row_kernel(
// OUTLINED:           memref.get_global @__constant_3xf32 : memref<3xf32>

// CHECK: .global .align {{[0-9]+}} .b8 __constant_3xf32[12] = {0, 0, 192, 63, 0, 0, 0, 192, 0, 0, 128, 64};
// CHECK: .visible .entry add_row_kernel(
// CHECK: mov.b64 {{.*}}, __constant_3xf32;
#id = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @add_row(%x: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %d = arith.constant dense<[1.5, -2.0, 4.0]> : tensor<3xf32>
  %e = tensor.empty() : tensor<5x3xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %d : tensor<5x3xf32>, tensor<3xf32>) outs(%e : tensor<5x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<5x3xf32>
  return %r : tensor<5x3xf32>
}
