// A reduction-iterator linalg.generic (row max), broadcast back.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[5,  -1]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-4,   0,   -2],
// CHECK-NEXT{LITERAL}: [-1,   -7,   0]]

#id = affine_map<(d0, d1) -> (d0, d1)>
#red = affine_map<(d0, d1) -> (d0)>
func.func private @printMemrefF32(tensor<*xf32>)

// Row-wise max with a reduction iterator, then x - max(row) broadcast back.
func.func @main() {
  %a = arith.constant dense<[[1.0, 5.0, 3.0], [-2.0, -8.0, -1.0]]> : tensor<2x3xf32>
  %ninf = arith.constant -1.0e30 : f32
  %e = tensor.empty() : tensor<2xf32>
  %init = linalg.fill ins(%ninf : f32) outs(%e : tensor<2xf32>) -> tensor<2xf32>
  %mx = linalg.generic {indexing_maps = [#id, #red], iterator_types = ["parallel", "reduction"]}
      ins(%a : tensor<2x3xf32>) outs(%init : tensor<2xf32>) {
  ^bb0(%x: f32, %acc: f32):
    %m = arith.maximumf %x, %acc : f32
    linalg.yield %m : f32
  } -> tensor<2xf32>
  %e2 = tensor.empty() : tensor<2x3xf32>
  %sh = linalg.generic {indexing_maps = [#id, #red, #id], iterator_types = ["parallel", "parallel"]}
      ins(%a, %mx : tensor<2x3xf32>, tensor<2xf32>) outs(%e2 : tensor<2x3xf32>) {
  ^bb0(%x: f32, %m: f32, %o: f32):
    %d = arith.subf %x, %m : f32
    linalg.yield %d : f32
  } -> tensor<2x3xf32>
  %u = tensor.cast %mx : tensor<2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %sh : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
