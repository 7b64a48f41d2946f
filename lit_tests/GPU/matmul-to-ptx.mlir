// REQUIRES: ptxas
// A linalg.matmul on memrefs through parallel loops, the GPU mapping and
// upstream's gpu-lower-to-nvvm-pipeline, to PTX that ptxas accepts.
// RUN: mlkit-opt %s -p 'builtin.module(func.func(convert-linalg-to-parallel-loops,gpu-map-parallel-loops),convert-parallel-loops-to-gpu,gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa opt-level=2})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mlkit-opt %s -p 'builtin.module(func.func(convert-linalg-to-parallel-loops,gpu-map-parallel-loops),convert-parallel-loops-to-gpu,gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=isa})' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin

// CHECK: .target sm_90
// CHECK: .visible .entry matmul_kernel(
// CHECK-COUNT-3: .param .u64 .ptr .align 1 matmul_kernel_param_
// CHECK: ld.global
// CHECK: mul.rn.f32
// CHECK: add.rn.f32
// CHECK: st.global.b32

func.func @matmul(%A: memref<64x32xf32>, %B: memref<32x16xf32>, %C: memref<64x16xf32>) {
  linalg.matmul ins(%A, %B : memref<64x32xf32>, memref<32x16xf32>) outs(%C : memref<64x16xf32>)
  return
}
