// tensor.pad with static and dynamic low/high amounts.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-2: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

func.func private @printMemrefF32(tensor<*xf32>)

func.func @pad_dynamic(%t: tensor<2x3xf32>, %lo: index, %hi: index, %v: f32) -> tensor<?x?xf32> {
  %p = tensor.pad %t low[%lo, 0] high[0, %hi] {
  ^bb0(%i: index, %j: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<?x?xf32>
  return %p : tensor<?x?xf32>
}

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %m1 = arith.constant -1.0 : f32
  %p = tensor.pad %a low[1, 2] high[2, 1] {
  ^bb0(%i: index, %j: index):
    tensor.yield %m1 : f32
  } : tensor<2x3xf32> to tensor<5x6xf32>
  %u1 = tensor.cast %p : tensor<5x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %nine = arith.constant 9.0 : f32
  %d = call @pad_dynamic(%a, %c2, %c1, %nine) : (tensor<2x3xf32>, index, index, f32) -> tensor<?x?xf32>
  %u2 = tensor.cast %d : tensor<?x?xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
