// A tensor matmul on ramps built with linalg.index, called across function
// boundaries, printed through printMemrefF32. tests/test_cpu_pipeline.py runs it.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s --check-prefix=KERNEL
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{microkernels=false})' --emit=llvm | filecheck %s
// By default the matmul runs on the packed micro-kernel's vector FMAs.
// KERNEL-LABEL: define {{.*}} @matmul(
// KERNEL: call <{{[0-9]+}} x float> @llvm.fmuladd.v{{[0-9]+}}f32(
// KERNEL-LABEL: define void @main()
// CHECK-LABEL: define {{.*}} @matmul(
// CHECK: fmul float
// CHECK: fadd float
// CHECK-LABEL: define void @main()
// CHECK: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr
// CHECK: call void @free(

#id = affine_map<(i, j) -> (i, j)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @ramp(%t: tensor<?x?xf32>, %si: f32, %sj: f32) -> tensor<?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%t : tensor<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %fi = arith.sitofp %ii : i32 to f32
    %fj = arith.sitofp %jj : i32 to f32
    %a = arith.mulf %fi, %si : f32
    %b = arith.mulf %fj, %sj : f32
    %s = arith.addf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @matmul(%a: tensor<3x4xf32>, %b: tensor<4x5xf32>) -> tensor<3x5xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3x5xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %r = linalg.matmul ins(%a, %b : tensor<3x4xf32>, tensor<4x5xf32>) outs(%c : tensor<3x5xf32>) -> tensor<3x5xf32>
  return %r : tensor<3x5xf32>
}

func.func @main() {
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %m1 = arith.constant -1.0 : f32
  %q = arith.constant 0.25 : f32
  %ea = tensor.empty() : tensor<3x4xf32>
  %eb = tensor.empty() : tensor<4x5xf32>
  %da = tensor.cast %ea : tensor<3x4xf32> to tensor<?x?xf32>
  %db = tensor.cast %eb : tensor<4x5xf32> to tensor<?x?xf32>
  %ra = call @ramp(%da, %one, %half) : (tensor<?x?xf32>, f32, f32) -> tensor<?x?xf32>
  %rb = call @ramp(%db, %m1, %q) : (tensor<?x?xf32>, f32, f32) -> tensor<?x?xf32>
  %a = tensor.cast %ra : tensor<?x?xf32> to tensor<3x4xf32>
  %b = tensor.cast %rb : tensor<?x?xf32> to tensor<4x5xf32>
  %c = call @matmul(%a, %b) : (tensor<3x4xf32>, tensor<4x5xf32>) -> tensor<3x5xf32>
  %u = tensor.cast %c : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
