// linalg-vectorize-loops on row sums and maxima (innermost reductions), column
// sums (an outer reduction) and row/column broadcasts, over 1x1, 3x7, 2x33 and
// 3x1000, at the host's width and at 256 and 128 bits. The sums are exact in f32.

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
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [1, 1] strides = [1, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[10.5,  -7,  -24.5]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[3,  0.5,  -2]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [7] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[-7.5,  -6,  -4.5,  -3,  -1.5,  0,  1.5]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 7] strides = [7, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-7.5,   -0.75,   6,   12.75,   19.5,   26.25,   33],
// CHECK-NEXT{LITERAL}: [10,   8,   6,   4,   2,   0,   -2],
// CHECK-NEXT{LITERAL}: [115,   104.25,   93.5,   82.75,   72,   61.25,   50.5]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[264,  181.5]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[16,  13.5]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [33] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[-2.5,  -1.5,  -0.5,  0.5,  1.5,  2.5,  3.5,  4.5,  5.5,  6.5,  7.5,  8.5,  9.5,  10.5,  11.5,  12.5,  13.5,  14.5,  15.5,  16.5,  17.5,  18.5,  19.5,  20.5,  21.5,  22.5,  23.5,  24.5,  25.5,  26.5,  27.5,  28.5,  29.5]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 33] strides = [33, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-2.5,   130.5,   263.5,   396.5,   529.5,   662.5,   795.5,   928.5,   1061.5,   1194.5,   1327.5,   1460.5,   1593.5,   1726.5,   1859.5,   1992.5,   2125.5,   2258.5,   2391.5,   2524.5,   2657.5,   2790.5,   2923.5,   3056.5,   3189.5,   3322.5,   3455.5,   3588.5,   3721.5,   3854.5,   3987.5,   4120.5,   4253.5],
// CHECK-NEXT{LITERAL}: [-456.25,   -364.5,   -272.75,   -181,   -89.25,   2.5,   94.25,   186,   277.75,   369.5,   461.25,   553,   644.75,   736.5,   828.25,   920,   1011.75,   1103.5,   1195.25,   1287,   1378.75,   1470.5,   1562.25,   1654,   1745.75,   1837.5,   1929.25,   2021,   2112.75,   2204.5,   2296.25,   2388,   2479.75]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[249750,  247250,  244750]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [3] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[499.5,  497,  494.5]

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
#col = affine_map<(d0, d1) -> (d1)>
func.func private @printMemrefF32(memref<*xf32>)

// x[i, j] = (j - 5 * i) * 0.5
func.func @fill(%x: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%x : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %i5 = arith.muli %i, %c5 : index
    %d = arith.subi %j, %i5 : index
    %w = arith.index_cast %d : index to i32
    %f = arith.sitofp %w : i32 to f32
    %h = arith.constant 0.5 : f32
    %r = arith.mulf %f, %h : f32
    linalg.yield %r : f32
  }
  return
}

// rows: sum and maximum; columns: sum
func.func @reduce(%x: memref<?x?xf32>, %s: memref<?xf32>, %m: memref<?xf32>, %c: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%s, %m : memref<?xf32>, memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32, %mx: f32):
    %r = arith.addf %a, %acc : f32
    %q = arith.maximumf %mx, %a : f32
    linalg.yield %r, %q : f32, f32
  }
  linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%c : memref<?xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %r = arith.addf %a, %acc : f32
    linalg.yield %r : f32
  }
  return
}

// y = x * scale[i] + bias[j]
func.func @affine(%x: memref<?x?xf32>, %scale: memref<?xf32>, %bias: memref<?xf32>, %y: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%x, %scale, %bias : memref<?x?xf32>, memref<?xf32>, memref<?xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%a: f32, %k: f32, %b: f32, %o: f32):
    %m = arith.mulf %a, %k : f32
    %r = arith.addf %m, %b : f32
    linalg.yield %r : f32
  }
  return
}

func.func @print(%v: memref<?xf32>) {
  %u = memref.cast %v : memref<?xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

func.func @case(%m: index, %n: index) {
  %x = memref.alloc(%m, %n) : memref<?x?xf32>
  call @fill(%x) : (memref<?x?xf32>) -> ()
  %s = memref.alloc(%m) : memref<?xf32>
  %mx = memref.alloc(%m) : memref<?xf32>
  %c = memref.alloc(%n) : memref<?xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  linalg.fill ins(%zero : f32) outs(%s : memref<?xf32>)
  linalg.fill ins(%ninf : f32) outs(%mx : memref<?xf32>)
  linalg.fill ins(%zero : f32) outs(%c : memref<?xf32>)
  call @reduce(%x, %s, %mx, %c) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?xf32>) -> ()
  call @print(%s) : (memref<?xf32>) -> ()
  call @print(%mx) : (memref<?xf32>) -> ()
  %c40 = arith.constant 40 : index
  %small = arith.cmpi ult, %n, %c40 : index
  scf.if %small {
    call @print(%c) : (memref<?xf32>) -> ()
    %y = memref.alloc(%m, %n) : memref<?x?xf32>
    call @affine(%x, %s, %c, %y) : (memref<?x?xf32>, memref<?xf32>, memref<?xf32>, memref<?x?xf32>) -> ()
    %u = memref.cast %y : memref<?x?xf32> to memref<*xf32>
    call @printMemrefF32(%u) : (memref<*xf32>) -> ()
    memref.dealloc %y : memref<?x?xf32>
  }
  memref.dealloc %c : memref<?xf32>
  memref.dealloc %mx : memref<?xf32>
  memref.dealloc %s : memref<?xf32>
  memref.dealloc %x : memref<?x?xf32>
  return
}

func.func @main() {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  %c1000 = arith.constant 1000 : index
  call @case(%c1, %c1) : (index, index) -> ()
  call @case(%c3, %c7) : (index, index) -> ()
  call @case(%c2, %c33) : (index, index) -> ()
  call @case(%c3, %c1000) : (index, index) -> ()
  return
}
