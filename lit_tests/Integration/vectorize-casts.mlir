// Casting named ops, vectorized: linalg.copy of i8 to f32, unsigned and signed.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --mlir-print-ir-after=linalg-vectorize-loops -o /dev/null 2>&1 | filecheck %s --check-prefix=VEC

// VEC: arith.uitofp %{{.*}} : vector<{{[0-9]+}}xi8> to vector<{{[0-9]+}}xf32>
// VEC: arith.sitofp %{{.*}} : vector<{{[0-9]+}}xi8> to vector<{{[0-9]+}}xf32>
// CHECK: [255,   1,   128,   127{{(, +[0-9]+)*}}]
// CHECK: [-1,   1,   -128,   127{{(, +-?[0-9]+)*}}]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %i = arith.constant dense<[-1, 1, -128, 127, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33]> : tensor<33xi8>
  %t = tensor.empty() : tensor<33xf32>
  %u = linalg.copy {cast = #linalg.type_fn<cast_unsigned>} ins(%i : tensor<33xi8>) outs(%t : tensor<33xf32>) -> tensor<33xf32>
  %s = linalg.copy ins(%i : tensor<33xi8>) outs(%t : tensor<33xf32>) -> tensor<33xf32>
  %pu = tensor.cast %u : tensor<33xf32> to tensor<*xf32>
  call @printMemrefF32(%pu) : (tensor<*xf32>) -> ()
  %ps = tensor.cast %s : tensor<33xf32> to tensor<*xf32>
  call @printMemrefF32(%ps) : (tensor<*xf32>) -> ()
  return
}
