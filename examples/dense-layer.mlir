// A dense layer on tensors: relu(x @ w + b), printed with the runner utils'
// printMemrefF32. Lower it to LLVM IR with:
//   mlkit-opt examples/dense-layer.mlir -p 'builtin.module(lower-to-cpu)' --emit=llvm
#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @dense_relu(%x: tensor<2x3xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<2x4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %acc = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %xw = linalg.matmul ins(%x, %w : tensor<2x3xf32>, tensor<3x4xf32>) outs(%acc : tensor<2x4xf32>) -> tensor<2x4xf32>
  %y = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%xw, %b : tensor<2x4xf32>, tensor<4xf32>) outs(%e : tensor<2x4xf32>) {
  ^bb0(%v: f32, %bias: f32, %out: f32):
    %s = arith.addf %v, %bias : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  } -> tensor<2x4xf32>
  return %y : tensor<2x4xf32>
}

func.func @main() {
  %x = arith.constant dense<[[1.0, 2.0, 3.0], [-1.0, 0.5, 2.0]]> : tensor<2x3xf32>
  %w = arith.constant dense<[[0.5, -1.0, 2.0, 0.0], [1.0, 0.25, -0.5, 1.0], [-0.5, 1.0, 0.0, 2.0]]> : tensor<3x4xf32>
  %b = arith.constant dense<[0.1, -0.2, 0.3, -4.0]> : tensor<4xf32>
  %y = call @dense_relu(%x, %w, %b) : (tensor<2x3xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<2x4xf32>
  %u = tensor.cast %y : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
