// linalg.generic with broadcasting input maps, and a generic reduction.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-2: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#col = affine_map<(i, j) -> (j)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @scale_bias(%a: tensor<3x4xf32>, %s: tensor<3xf32>, %b: tensor<4xf32>) -> tensor<3x4xf32> {
  %e = tensor.empty() : tensor<3x4xf32>
  %r = linalg.generic {indexing_maps = [#id, #row, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %s, %b : tensor<3x4xf32>, tensor<3xf32>, tensor<4xf32>) outs(%e : tensor<3x4xf32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o: f32):
    %m = arith.mulf %x, %y : f32
    %p = arith.addf %m, %z : f32
    linalg.yield %p : f32
  } -> tensor<3x4xf32>
  return %r : tensor<3x4xf32>
}

func.func @sum_of_squares(%a: tensor<3x4xf32>) -> tensor<3xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<3xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3xf32>) -> tensor<3xf32>
  %r = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<3x4xf32>) outs(%f : tensor<3xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %sq = arith.mulf %x, %x : f32
    %s = arith.addf %acc, %sq : f32
    linalg.yield %s : f32
  } -> tensor<3xf32>
  return %r : tensor<3xf32>
}

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0, 4.0], [-1.0, 0.5, 2.5, -3.0], [0.0, 1.5, -2.0, 8.0]]> : tensor<3x4xf32>
  %s = arith.constant dense<[2.0, -1.0, 0.5]> : tensor<3xf32>
  %b = arith.constant dense<[10.0, 20.0, 30.0, 40.0]> : tensor<4xf32>
  %r = call @scale_bias(%a, %s, %b) : (tensor<3x4xf32>, tensor<3xf32>, tensor<4xf32>) -> tensor<3x4xf32>
  %q = call @sum_of_squares(%r) : (tensor<3x4xf32>) -> tensor<3xf32>
  %u1 = tensor.cast %r : tensor<3x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %q : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
