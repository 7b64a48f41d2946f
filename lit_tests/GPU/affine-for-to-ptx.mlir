// REQUIRES: ptxas
// An affine.for nest mapped by convert-affine-for-to-gpu, then through gpu-lower-to-nvvm-pipeline.
// RUN: mlkit-opt %s -p 'builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=1}),gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin

// CHECK: .target sm_90
// CHECK: .visible .entry scale_kernel(
// CHECK-DAG: mov.u32 {{.*}}%ctaid.x
// CHECK-DAG: mov.u32 {{.*}}%tid.x
// CHECK: ld.global
// CHECK: st.global
func.func @scale(%m: memref<?x?xf32>, %n: index, %c: f32) {
  affine.for %i = 0 to %n step 2 {
    affine.for %j = 0 to 64 {
      %v = affine.load %m[%i, %j] : memref<?x?xf32>
      %w = arith.mulf %v, %c : f32
      affine.store %w, %m[%i, %j] : memref<?x?xf32>
    }
  }
  return
}
