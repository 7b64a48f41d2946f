// linalg.transpose, linalg.broadcast, linalg.fill and an elementwise linalg.add.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-4: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0]]> : tensor<3x4xf32>
  %v = arith.constant dense<[0.5, -1.0, 2.0, 4.0]> : tensor<4xf32>
  %e1 = tensor.empty() : tensor<4x3xf32>
  %t = linalg.transpose ins(%a : tensor<3x4xf32>) outs(%e1 : tensor<4x3xf32>) permutation = [1, 0]
  %e2 = tensor.empty() : tensor<3x4xf32>
  %b = linalg.broadcast ins(%v : tensor<4xf32>) outs(%e2 : tensor<3x4xf32>) dimensions = [0]
  %e3 = tensor.empty() : tensor<3x4xf32>
  %s = linalg.add ins(%a, %b : tensor<3x4xf32>, tensor<3x4xf32>) outs(%e3 : tensor<3x4xf32>) -> tensor<3x4xf32>
  %seven = arith.constant 7.0 : f32
  %e4 = tensor.empty() : tensor<2x3x2xf32>
  %f = linalg.fill ins(%seven : f32) outs(%e4 : tensor<2x3x2xf32>) -> tensor<2x3x2xf32>
  %u1 = tensor.cast %t : tensor<4x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %b : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %s : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %f : tensor<2x3x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
