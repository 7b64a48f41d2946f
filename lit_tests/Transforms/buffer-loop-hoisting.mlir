// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(buffer-loop-hoisting))' | filecheck %s

// A scratch buffer of a loop nest is allocated once, before the outermost
// loop its size allows; allocas move too.
// CHECK-LABEL: func.func @nest
//  CHECK-SAME: (%[[N:.*]]: index)
//  CHECK-NEXT: memref.alloc() : memref<8xf32>
//  CHECK-NEXT: memref.alloca() : memref<4xf32>
//  CHECK-NEXT: scf.for %[[I:.*]] =
//  CHECK-NEXT:   memref.alloc(%[[I]]) : memref<?xf32>
//  CHECK-NEXT:   affine.for
//  CHECK-NEXT:     "test.use"
func.func @nest(%n: index) {
  scf.for %i = %n to %n step %n {
    affine.for %j = 0 to 4 {
      %a = memref.alloc() : memref<8xf32>
      %s = memref.alloca() : memref<4xf32>
      %d = memref.alloc(%i) : memref<?xf32>
      "test.use"(%a, %s, %d) : (memref<8xf32>, memref<4xf32>, memref<?xf32>) -> ()
      affine.yield
    }
    scf.yield
  }
  return
}

// -----

// Left alone: a buffer the loop yields to its next iteration, one inside an
// scf.if (not a loop), one inside a parallel loop.
// CHECK-LABEL: func.func @stays
//       CHECK: scf.for
//  CHECK-NEXT:   memref.alloc() : memref<8xf32>
//       CHECK: scf.for
//  CHECK-NEXT:   scf.if
//  CHECK-NEXT:     memref.alloc() : memref<2xf32>
//       CHECK: scf.parallel
//  CHECK-NEXT:   memref.alloc() : memref<3xf32>
func.func @stays(%c: i1, %n: index, %init: memref<8xf32>) {
  %r = scf.for %i = %n to %n step %n iter_args(%acc = %init) -> memref<8xf32> {
    %x = memref.alloc() : memref<8xf32>
    "test.use"(%acc) : (memref<8xf32>) -> ()
    scf.yield %x : memref<8xf32>
  }
  scf.for %i = %n to %n step %n {
    scf.if %c {
      %y = memref.alloc() : memref<2xf32>
      "test.use"(%y) : (memref<2xf32>) -> ()
      scf.yield
    }
    scf.yield
  }
  scf.parallel (%i) = (%n) to (%n) step (%n) {
    %z = memref.alloc() : memref<3xf32>
    "test.use"(%z) : (memref<3xf32>) -> ()
    scf.reduce
  }
  "test.use"(%r) : (memref<8xf32>) -> ()
  return
}

// -----

// Out of an scf.while's body.
// CHECK-LABEL: func.func @while
//  CHECK-NEXT: memref.alloc() : memref<8xf32>
//  CHECK-NEXT: scf.while
func.func @while() {
  scf.while () : () -> () {
    %go = "test.cond"() : () -> i1
    scf.condition(%go)
  } do {
    %x = memref.alloc() : memref<8xf32>
    "test.use"(%x) : (memref<8xf32>) -> ()
    scf.yield
  }
  return
}
