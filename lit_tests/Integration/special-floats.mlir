// inf, -inf, NaN and -0 print as C++ streams print them (x86: 0/0 is -nan).

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[inf,  -inf,  -nan,  -0,  0,  0.000333333]

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[1.0, -1.0, 0.0, -0.0, 0.0, 1.0e-3]> : tensor<6xf32>
  %b = arith.constant dense<[0.0, 0.0, 0.0, 1.0, 5.0, 3.0]> : tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xf32>, tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %d = arith.divf %x, %y : f32
    linalg.yield %d : f32
  } -> tensor<6xf32>
  %u = tensor.cast %r : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
