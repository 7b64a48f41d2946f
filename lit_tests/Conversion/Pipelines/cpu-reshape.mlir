// tensor.expand_shape and tensor.collapse_shape, of a constant and of a
// transposed (fresh) tensor, feeding linalg ops.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-2: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[0.0, 1.0, 2.0, 3.0], [4.0, 5.0, 6.0, 7.0], [8.0, 9.0, 10.0, 11.0],
                             [12.0, 13.0, 14.0, 15.0], [16.0, 17.0, 18.0, 19.0], [20.0, 21.0, 22.0, 23.0]]> : tensor<6x4xf32>
  %x = tensor.expand_shape %a [[0, 1], [2]] output_shape [2, 3, 4] : tensor<6x4xf32> into tensor<2x3x4xf32>
  %e = tensor.empty() : tensor<3x2x4xf32>
  %t = linalg.transpose ins(%x : tensor<2x3x4xf32>) outs(%e : tensor<3x2x4xf32>) permutation = [1, 0, 2]
  %c = tensor.collapse_shape %t [[0], [1, 2]] : tensor<3x2x4xf32> into tensor<3x8xf32>
  %one = arith.constant 1.0 : f32
  %e2 = tensor.empty() : tensor<3x8xf32>
  %f = linalg.fill ins(%one : f32) outs(%e2 : tensor<3x8xf32>) -> tensor<3x8xf32>
  %s = linalg.sub ins(%c, %f : tensor<3x8xf32>, tensor<3x8xf32>) outs(%e2 : tensor<3x8xf32>) -> tensor<3x8xf32>
  %u1 = tensor.cast %t : tensor<3x2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %s : tensor<3x8xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
