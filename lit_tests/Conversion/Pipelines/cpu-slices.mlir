// extract_slice (unit and strided), and an insert_slice that overwrites a
// tensor still read afterwards: bufferization must copy, not write in place.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-4: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id = affine_map<(i, j) -> (i, j)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %e = tensor.empty() : tensor<4x6xf32>
  %a = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<4x6xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c10 = arith.constant 10 : index
    %i10 = arith.muli %i, %c10 : index
    %v = arith.addi %i10, %j : index
    %vi = arith.index_cast %v : index to i32
    %f = arith.sitofp %vi : i32 to f32
    linalg.yield %f : f32
  } -> tensor<4x6xf32>
  %s = tensor.extract_slice %a[1, 2] [2, 3] [1, 1] : tensor<4x6xf32> to tensor<2x3xf32>
  %st = tensor.extract_slice %a[0, 1] [2, 3] [2, 2] : tensor<4x6xf32> to tensor<2x3xf32>
  %seven = arith.constant 7.0 : f32
  %f = linalg.fill ins(%seven : f32) outs(%s : tensor<2x3xf32>) -> tensor<2x3xf32>
  %w = tensor.insert_slice %f into %a[2, 0] [2, 3] [1, 1] : tensor<2x3xf32> into tensor<4x6xf32>
  %w2 = tensor.insert_slice %st into %w[0, 0] [2, 3] [1, 2] : tensor<2x3xf32> into tensor<4x6xf32>
  %u1 = tensor.cast %s : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %st : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %w2 : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %a : tensor<4x6xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
