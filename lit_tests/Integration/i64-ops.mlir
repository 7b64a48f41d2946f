// i64 arithmetic with wrap-around, trunci, extsi and extui.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[3,  -3,  12884901888,  9223372036854775805]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [4] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0,  4294967296,  0,  4294967296]

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefI64(tensor<*xi64>)

func.func @main() {
  %a = arith.constant dense<[1, -1, 4294967296, 9223372036854775807]> : tensor<4xi64>
  %e = tensor.empty() : tensor<4xi64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xi64>) outs(%e : tensor<4xi64>) {
  ^bb0(%x: i64, %o: i64):
    %c3 = arith.constant 3 : i64
    %m = arith.muli %x, %c3 : i64
    linalg.yield %m : i64
  } -> tensor<4xi64>
  %e32 = tensor.empty() : tensor<4xi32>
  %t = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<4xi64>) outs(%e32 : tensor<4xi32>) {
  ^bb0(%x: i64, %o: i32):
    %tr = arith.trunci %x : i64 to i32
    linalg.yield %tr : i32
  } -> tensor<4xi32>
  %x = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%t : tensor<4xi32>) outs(%e : tensor<4xi64>) {
  ^bb0(%y: i32, %o: i64):
    %s = arith.extsi %y : i32 to i64
    %z = arith.extui %y : i32 to i64
    %d = arith.subi %z, %s : i64
    linalg.yield %d : i64
  } -> tensor<4xi64>
  %u = tensor.cast %r : tensor<4xi64> to tensor<*xi64>
  call @printMemrefI64(%u) : (tensor<*xi64>) -> ()
  %v = tensor.cast %x : tensor<4xi64> to tensor<*xi64>
  call @printMemrefI64(%v) : (tensor<*xi64>) -> ()
  return
}
