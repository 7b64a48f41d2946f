// A load past the end, caught by generate-runtime-verification: with
// -runtime-checks mlkit-run reports it and exits 1 (without, the process
// aborts, as upstream's runner does). An access in bounds runs as usual.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{runtime-checks})' -o %t.mlir
// RUN: not mlkit-run %t.mlir -e bad -runtime-checks > %t.out 2> %t.err
// RUN: filecheck %s --check-prefix=MSG < %t.out
// RUN: filecheck %s --check-prefix=ERR < %t.err
// RUN: mlkit-run %t.mlir -e good -runtime-checks | filecheck %s --check-prefix=GOOD

// MSG: ERROR: Runtime op verification failed
// MSG-NEXT: %0 = memref.load %1[%2] : memref<4xf32>
// MSG-NEXT: ^ out-of-bounds access
// MSG-NEXT: Location: loc("{{.*}}runtime-checks.mlir":21:3)
// ERR: mlkit-run: error: a runtime check of 'bad' failed
// GOOD: 3.500000e+00

func.func @bad() -> f32 {
  %m = memref.alloc() : memref<4xf32>
  %c5 = arith.constant 5 : index
  %x = memref.load %m[%c5] : memref<4xf32>
  return %x : f32
}

func.func @good() -> f32 {
  %m = memref.alloc() : memref<4xf32>
  %c3 = arith.constant 3 : index
  %f = arith.constant 3.5 : f32
  memref.store %f, %m[%c3] : memref<4xf32>
  %x = memref.load %m[%c3] : memref<4xf32>
  return %x : f32
}
