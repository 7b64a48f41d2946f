// affine-loop-tile keeps what a program computes: tiles that do not divide
// the trip counts (min bounds), separated full tiles, a recurrence tiled
// along its non-negative dependences, and a nest whose dependence tiling
// would reverse, left as it is.

// RUN: mlkit-opt %s -p 'builtin.module(func.func(affine-loop-tile{tile-sizes=2,2,3}), lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(func.func(affine-loop-tile{tile-size=4 separate}), lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(func.func(affine-loop-tile{cache-size=1}), lower-affine, convert-scf-to-cf, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -affine-loop-tile="tile-size=2" | filecheck %s --check-prefix=TILED

// TILED-LABEL: func.func @matmul
// TILED:         step 2
// TILED-LABEL: func.func @pascal
// TILED:         step 2
// TILED-LABEL: func.func @anti
// TILED-NOT:     step 2
// TILED-LABEL: func.func @main

// CHECK: sizes = [5, 3]
// CHECK-NEXT{LITERAL}: [[91,   70,   49],
// CHECK-NEXT{LITERAL}:  [238,   168,   98],
// CHECK-NEXT{LITERAL}:  [385,   266,   147],
// CHECK-NEXT{LITERAL}:  [532,   364,   196],
// CHECK-NEXT{LITERAL}:  [679,   462,   245]]
// CHECK: sizes = [6, 6]
// CHECK-NEXT{LITERAL}: [[1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}:  [1,   2,   3,   4,   5,   6],
// CHECK-NEXT{LITERAL}:  [1,   3,   6,   10,   15,   21],
// CHECK-NEXT{LITERAL}:  [1,   4,   10,   20,   35,   56],
// CHECK-NEXT{LITERAL}:  [1,   5,   15,   35,   70,   126],
// CHECK-NEXT{LITERAL}:  [1,   6,   21,   56,   126,   252]]
// CHECK: sizes = [6, 6]
// CHECK-NEXT{LITERAL}: [[0,   7,   8,   9,   10,   11],
// CHECK-NEXT{LITERAL}:  [6,   13,   14,   15,   16,   17],
// CHECK-NEXT{LITERAL}:  [12,   19,   20,   21,   22,   23],
// CHECK-NEXT{LITERAL}:  [18,   25,   26,   27,   28,   29],
// CHECK-NEXT{LITERAL}:  [24,   31,   32,   33,   34,   35],
// CHECK-NEXT{LITERAL}:  [30,   31,   32,   33,   34,   35]]

func.func private @printMemrefF32(memref<*xf32>)

// c += a * b, with a[i][k] = 7i + k and b[k][j] = k - j
func.func @matmul(%a: memref<5x7xf32>, %b: memref<7x3xf32>, %c: memref<5x3xf32>) {
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 3 {
      affine.for %k = 0 to 7 {
        %x = affine.load %a[%i, %k] : memref<5x7xf32>
        %y = affine.load %b[%k, %j] : memref<7x3xf32>
        %z = affine.load %c[%i, %j] : memref<5x3xf32>
        %p = arith.mulf %x, %y : f32
        %q = arith.addf %z, %p : f32
        affine.store %q, %c[%i, %j] : memref<5x3xf32>
      }
    }
  }
  return
}

// p[i][j] = p[i-1][j] + p[i][j-1]: binomial coefficients
func.func @pascal(%p: memref<6x6xf32>) {
  affine.for %i = 1 to 6 {
    affine.for %j = 1 to 6 {
      %up = affine.load %p[%i - 1, %j] : memref<6x6xf32>
      %left = affine.load %p[%i, %j - 1] : memref<6x6xf32>
      %s = arith.addf %up, %left : f32
      affine.store %s, %p[%i, %j] : memref<6x6xf32>
    }
  }
  return
}

// q[i][j] = q[i+1][j-1] + 1: a distance of (1, -1)
func.func @anti(%q: memref<6x6xf32>) {
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 5 {
    affine.for %j = 1 to 6 {
      %v = affine.load %q[%i + 1, %j - 1] : memref<6x6xf32>
      %w = arith.addf %v, %one : f32
      affine.store %w, %q[%i, %j] : memref<6x6xf32>
    }
  }
  return
}

func.func @main() {
  %a = memref.alloc() : memref<5x7xf32>
  %b = memref.alloc() : memref<7x3xf32>
  %c = memref.alloc() : memref<5x3xf32>
  %p = memref.alloc() : memref<6x6xf32>
  %q = memref.alloc() : memref<6x6xf32>
  %zero = arith.constant 0.0 : f32
  %one = arith.constant 1.0 : f32
  affine.for %i = 0 to 5 {
    affine.for %k = 0 to 7 {
      %s = affine.apply affine_map<(d0, d1) -> (d0 * 7 + d1)>(%i, %k)
      %si = arith.index_cast %s : index to i32
      %f = arith.sitofp %si : i32 to f32
      affine.store %f, %a[%i, %k] : memref<5x7xf32>
    }
  }
  affine.for %k = 0 to 7 {
    affine.for %j = 0 to 3 {
      %s = affine.apply affine_map<(d0, d1) -> (d0 - d1)>(%k, %j)
      %si = arith.index_cast %s : index to i32
      %f = arith.sitofp %si : i32 to f32
      affine.store %f, %b[%k, %j] : memref<7x3xf32>
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 3 {
      affine.store %zero, %c[%i, %j] : memref<5x3xf32>
    }
  }
  affine.for %i = 0 to 6 {
    affine.for %j = 0 to 6 {
      affine.store %one, %p[%i, %j] : memref<6x6xf32>
      %s = affine.apply affine_map<(d0, d1) -> (d0 * 6 + d1)>(%i, %j)
      %si = arith.index_cast %s : index to i32
      %f = arith.sitofp %si : i32 to f32
      affine.store %f, %q[%i, %j] : memref<6x6xf32>
    }
  }
  call @matmul(%a, %b, %c) : (memref<5x7xf32>, memref<7x3xf32>, memref<5x3xf32>) -> ()
  call @pascal(%p) : (memref<6x6xf32>) -> ()
  call @anti(%q) : (memref<6x6xf32>) -> ()
  %uc = memref.cast %c : memref<5x3xf32> to memref<*xf32>
  call @printMemrefF32(%uc) : (memref<*xf32>) -> ()
  %up = memref.cast %p : memref<6x6xf32> to memref<*xf32>
  call @printMemrefF32(%up) : (memref<*xf32>) -> ()
  %uq = memref.cast %q : memref<6x6xf32> to memref<*xf32>
  call @printMemrefF32(%uq) : (memref<*xf32>) -> ()
  memref.dealloc %a : memref<5x7xf32>
  memref.dealloc %b : memref<7x3xf32>
  memref.dealloc %c : memref<5x3xf32>
  memref.dealloc %p : memref<6x6xf32>
  memref.dealloc %q : memref<6x6xf32>
  return
}
