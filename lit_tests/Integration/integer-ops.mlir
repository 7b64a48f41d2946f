// arith integer ops on i32: add, mul, div, rem, bit ops, shifts, min/max.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[9,  -5,  97,  -93,  271,  8]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[14,  -14,  -300,  -700,  4080,  15]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[3,  -3,  -33,  -14,  15,  0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[1,  -1,  1,  -2,  15,  3]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[10,  -10,  -138,  -202,  478,  13]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[2,  1073741820,  50,  1073741774,  126,  0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [6] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[5,  0,  0,  0,  239,  2]

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefI32(tensor<*xi32>)

func.func @main() {
  %a = arith.constant dense<[7, -7, 100, -100, 255, 3]> : tensor<6xi32>
  %b = arith.constant dense<[2, 2, -3, 7, 16, 5]> : tensor<6xi32>
  %e = tensor.empty() : tensor<8x6xi32>
  %e1 = tensor.empty() : tensor<6xi32>
  %add = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.addi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %mul = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.muli %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %div = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.divsi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %rem = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %r = arith.remsi %x, %y : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %bits = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %and = arith.andi %x, %y : i32
    %xor = arith.xori %x, %y : i32
    %c1 = arith.constant 1 : i32
    %sh = arith.shli %xor, %c1 : i32
    %r = arith.ori %and, %sh : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %shr = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %o: i32):
    %c2 = arith.constant 2 : i32
    %s = arith.shrsi %x, %c2 : i32
    %u = arith.shrui %x, %c2 : i32
    %r = arith.addi %s, %u : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %mm = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<6xi32>, tensor<6xi32>) outs(%e1 : tensor<6xi32>) {
  ^bb0(%x: i32, %y: i32, %o: i32):
    %mx = arith.maxsi %x, %y : i32
    %mn = arith.minui %x, %y : i32
    %r = arith.subi %mx, %mn : i32
    linalg.yield %r : i32
  } -> tensor<6xi32>
  %u0 = tensor.cast %add : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u0) : (tensor<*xi32>) -> ()
  %u1 = tensor.cast %mul : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u1) : (tensor<*xi32>) -> ()
  %u2 = tensor.cast %div : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u2) : (tensor<*xi32>) -> ()
  %u3 = tensor.cast %rem : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u3) : (tensor<*xi32>) -> ()
  %u4 = tensor.cast %bits : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u4) : (tensor<*xi32>) -> ()
  %u5 = tensor.cast %shr : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u5) : (tensor<*xi32>) -> ()
  %u6 = tensor.cast %mm : tensor<6xi32> to tensor<*xi32>
  call @printMemrefI32(%u6) : (tensor<*xi32>) -> ()
  return
}
