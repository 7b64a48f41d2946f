// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(buffer-hoisting))' | filecheck %s

// Both branches hand their buffer to the join: each allocation moves up to
// the entry block, which dominates the join (before its terminator); the
// dynamic one can go no higher than its size.
// CHECK-LABEL: func.func @branches
//  CHECK-NEXT: %[[A:.*]] = memref.alloc() : memref<8xf32>
//  CHECK-NEXT: cf.cond_br
//       CHECK: ^{{.*}}:
//  CHECK-NEXT: cf.br ^{{.*}}(%[[A]] : memref<8xf32>)
//       CHECK: ^{{.*}}:
//  CHECK-NEXT: %[[N:.*]] = "test.size"
//  CHECK-NEXT: memref.alloc(%[[N]]) : memref<?xf32>
func.func @branches(%c: i1) {
  cf.cond_br %c, ^a, ^b
^a:
  %x = memref.alloc() : memref<8xf32>
  cf.br ^j(%x : memref<8xf32>)
^b:
  %n = "test.size"() : () -> index
  %y = memref.alloc(%n) : memref<?xf32>
  %yc = memref.cast %y : memref<?xf32> to memref<8xf32>
  cf.br ^j(%yc : memref<8xf32>)
^j(%w: memref<8xf32>):
  "test.use"(%w) : (memref<8xf32>) -> ()
  return
}

// -----

// Yielded out of an scf.if: the buffer moves before the scf.if. One used only
// inside its branch stays.
// CHECK-LABEL: func.func @yielded
//  CHECK-NEXT: memref.alloc() : memref<8xf32>
//  CHECK-NEXT: memref.alloc() : memref<8xf32>
//  CHECK-NEXT: scf.if
//  CHECK-NEXT:   memref.alloc() : memref<4xf32>
func.func @yielded(%c: i1) {
  %r = scf.if %c -> memref<8xf32> {
    %t = memref.alloc() : memref<4xf32>
    "test.use"(%t) : (memref<4xf32>) -> ()
    %x = memref.alloc() : memref<8xf32>
    scf.yield %x : memref<8xf32>
  } else {
    %y = memref.alloc() : memref<8xf32>
    scf.yield %y : memref<8xf32>
  }
  "test.use"(%r) : (memref<8xf32>) -> ()
  return
}

// -----

// Never out of a loop, even when the loop hands the buffer on.
// CHECK-LABEL: func.func @loop
//       CHECK: scf.for
//  CHECK-NEXT:   memref.alloc() : memref<8xf32>
func.func @loop(%n: index, %init: memref<8xf32>) {
  %r = scf.for %i = %n to %n step %n iter_args(%acc = %init) -> memref<8xf32> {
    %x = memref.alloc() : memref<8xf32>
    "test.use"(%acc) : (memref<8xf32>) -> ()
    scf.yield %x : memref<8xf32>
  }
  "test.use"(%r) : (memref<8xf32>) -> ()
  return
}
