// Dynamic shapes: tensor.dim, tensor.empty(%d), a dynamic matmul and a
// dynamic elementwise generic, printed as unranked tensors.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define { ptr, ptr, i64, [2 x i64], [2 x i64] } @matmul_dyn(
// CHECK-LABEL: define void @main()
// CHECK-COUNT-2: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id = affine_map<(i, j) -> (i, j)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @matmul_dyn(%a: tensor<?x?xf32>, %b: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %b, %c1 : tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = linalg.matmul ins(%a, %b : tensor<?x?xf32>, tensor<?x?xf32>) outs(%f : tensor<?x?xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @relu_dyn(%a: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %a, %c0 : tensor<?x?xf32>
  %n = tensor.dim %a, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a : tensor<?x?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %o: f32):
    %zero = arith.constant 0.0 : f32
    %c = arith.cmpf ogt, %x, %zero : f32
    %v = arith.select %c, %x, %zero : f32
    linalg.yield %v : f32
  } -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}

func.func @main() {
  %a = arith.constant dense<[[1.0, -2.0, 3.0, 0.5], [-1.0, 4.0, -0.5, 2.0], [2.0, 2.0, -3.0, 1.0]]> : tensor<3x4xf32>
  %b = arith.constant dense<[[1.0, 0.0], [0.5, -1.0], [2.0, 1.0], [-4.0, 3.0]]> : tensor<4x2xf32>
  %da = tensor.cast %a : tensor<3x4xf32> to tensor<?x?xf32>
  %db = tensor.cast %b : tensor<4x2xf32> to tensor<?x?xf32>
  %m = call @matmul_dyn(%da, %db) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %r = call @relu_dyn(%m) : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %u1 = tensor.cast %m : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
