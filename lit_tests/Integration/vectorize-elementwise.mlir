// linalg-vectorize-loops on sizes 1, 7, 33 and 1000: linalg.index, a chain of
// elementwise ops in one generic, and a sum over the whole vector, at the host's
// width and at 256 and 128 bits. The sums are exact in f32, whatever their order.

// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-math-to-libm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops{vector-bits=256}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-math-to-libm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(linalg-vectorize-loops{vector-bits=128 unroll=4}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-math-to-llvm, convert-math-to-libm, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [7] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0,  0,  2.25,  6.75,  11.25,  15.75,  20.25]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[56.25]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [33] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0,  0,  2.25,  6.75,  11.25,  15.75,  20.25,  24.75,  29.25,  33.75,  38.25,  42.75,  47.25,  51.75,  56.25,  60.75,  65.25,  69.75,  74.25,  78.75,  83.25,  87.75,  92.25,  96.75,  101.25,  105.75,  110.25,  114.75,  119.25,  123.75,  128.25,  132.75,  137.25]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[2162.25]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[2.24101e+06]

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func private @printMemrefF32(memref<*xf32>)

// x[i] = i
func.func @iota(%x: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%x : memref<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %w = arith.index_cast %i : index to i64
    %f = arith.sitofp %w : i64 to f32
    linalg.yield %f : f32
  }
  return
}

// y = max(x * 1.5 + 0.25, 0) * 3 in one generic
func.func @chain(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c15 = arith.constant 1.5 : f32
    %c025 = arith.constant -2.25 : f32
    %z = arith.constant 0.0 : f32
    %c3 = arith.constant 3.0 : f32
    %m = arith.mulf %a, %c15 : f32
    %s = arith.addf %m, %c025 : f32
    %r = arith.maximumf %s, %z : f32
    %t = arith.mulf %r, %c3 : f32
    linalg.yield %t : f32
  }
  return
}

func.func @sum(%x: memref<?xf32>, %s: memref<1xf32>) {
  linalg.generic {indexing_maps = [#id, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
      ins(%x : memref<?xf32>) outs(%s : memref<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  }
  return
}

func.func @case(%n: index) {
  %x = memref.alloc(%n) : memref<?xf32>
  %y = memref.alloc(%n) : memref<?xf32>
  call @iota(%x) : (memref<?xf32>) -> ()
  call @chain(%x, %y) : (memref<?xf32>, memref<?xf32>) -> ()
  %c40 = arith.constant 40 : index
  %small = arith.cmpi ult, %n, %c40 : index
  scf.if %small {
    %u = memref.cast %y : memref<?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  }
  %s = memref.alloc() : memref<1xf32>
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  memref.store %zero, %s[%c0] : memref<1xf32>
  call @sum(%y, %s) : (memref<?xf32>, memref<1xf32>) -> ()
  %v = memref.cast %s : memref<1xf32> to memref<*xf32>
  call @printMemrefF32(%v) : (memref<*xf32>) -> ()
  memref.dealloc %s : memref<1xf32>
  memref.dealloc %y : memref<?xf32>
  memref.dealloc %x : memref<?xf32>
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  %c1000 = arith.constant 1000 : index
  call @case(%c1) : (index) -> ()
  call @case(%c7) : (index) -> ()
  call @case(%c33) : (index) -> ()
  call @case(%c1000) : (index) -> ()
  return
}
