// math dialect ops: sqrt, log, exp, sin, cos, powf, floor, tanh.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void -O3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [5] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0.5,  1,  1.41421,  2,  3]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [5] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[1,  1,  1,  1,  1]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [5] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[1,  1,  1,  1,  1]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [5] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0,  1,  4,  16,  81]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [5] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0.244919,  0.761594,  0.964028,  0.999329,  1]

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[0.25, 1.0, 2.0, 4.0, 9.0]> : tensor<5xf32>
  %e = tensor.empty() : tensor<5xf32>
  %r1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.sqrt %x : f32
    linalg.yield %s : f32
  } -> tensor<5xf32>
  %r2 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %l = math.log %x : f32
    %ex = math.exp %l : f32
    %d = arith.subf %ex, %x : f32
    %ab = math.absf %d : f32
    %c = arith.constant 1.0e-4 : f32
    %small = arith.cmpf olt, %ab, %c : f32
    %one = arith.constant 1.0 : f32
    %zero = arith.constant 0.0 : f32
    %r = arith.select %small, %one, %zero : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %r3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %s = math.sin %x : f32
    %c = math.cos %x : f32
    %s2 = arith.mulf %s, %s : f32
    %c2 = arith.mulf %c, %c : f32
    %r = arith.addf %s2, %c2 : f32
    linalg.yield %r : f32
  } -> tensor<5xf32>
  %r4 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %two = arith.constant 2.0 : f32
    %p = math.powf %x, %two : f32
    %f = math.floor %p : f32
    linalg.yield %f : f32
  } -> tensor<5xf32>
  %r5 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<5xf32>) outs(%e : tensor<5xf32>) {
  ^bb0(%x: f32, %o: f32):
    %t = math.tanh %x : f32
    linalg.yield %t : f32
  } -> tensor<5xf32>
  %u1 = tensor.cast %r1 : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r2 : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %u3 = tensor.cast %r3 : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %r4 : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  %u5 = tensor.cast %r5 : tensor<5xf32> to tensor<*xf32>
  call @printMemrefF32(%u5) : (tensor<*xf32>) -> ()
  return
}
