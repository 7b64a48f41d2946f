// REQUIRES: ptxas
// lower-to-cuda takes tensors and linalg to PTX kernels (one per linalg op)
// and host code that launches them through upstream's GPU runtime API.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cuda{chip=sm_90})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cuda)' --emit=llvm | filecheck %s --check-prefix=HOST

// CHECK: .target sm_90
// CHECK: .visible .entry matmul_kernel(
// CHECK: st.global.b32
// CHECK: .visible .entry matmul_kernel(
// CHECK: mul.rn.f32
// CHECK: add.rn.f32
// HOST: call ptr @mgpuModuleLoadJIT(ptr @matmul_kernel_binary, i32 3,
// HOST: call ptr @mgpuModuleLoadJIT(ptr @matmul_kernel_0_binary, i32 3,
// HOST-LABEL: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @matmul(
// HOST: call void @mgpuLaunchKernel(
// HOST: call void @mgpuLaunchKernel(
func.func @matmul(%a: tensor<64x32xf32>, %b: tensor<32x16xf32>) -> tensor<64x16xf32> {
  %e = tensor.empty() : tensor<64x16xf32>
  %z = arith.constant 0.0 : f32
  %f = linalg.fill ins(%z : f32) outs(%e : tensor<64x16xf32>) -> tensor<64x16xf32>
  %r = linalg.matmul ins(%a, %b : tensor<64x32xf32>, tensor<32x16xf32>) outs(%f : tensor<64x16xf32>) -> tensor<64x16xf32>
  return %r : tensor<64x16xf32>
}
