// RUN: mlkit-opt %s -split-input-file -buffer-deallocation-pipeline | FileCheck %s

// A loop that allocates on every iteration frees the previous iteration's buffer.
// CHECK-LABEL: func.func @loop
// CHECK: %[[INIT:.*]] = memref.alloc(
// CHECK: %[[R:.*]] = scf.for {{.*}} iter_args(%[[I:.*]] = %[[INIT]])
// CHECK:   %[[N:.*]] = memref.alloc(
// CHECK:   memref.load %[[I]]
// CHECK:   memref.dealloc %[[I]]
// CHECK:   scf.yield %[[N]]
// CHECK: return %[[R]]
func.func @loop(%n: index, %m: memref<?xf32>) -> memref<?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%a = %m) -> (memref<?xf32>) {
    %b = memref.alloc(%n) : memref<?xf32>
    %v = memref.load %a[%i] : memref<?xf32>
    memref.store %v, %b[%i] : memref<?xf32>
    scf.yield %b : memref<?xf32>
  }
  return %r : memref<?xf32>
}

// -----

// A temporary is freed after its last use, views included.
// CHECK-LABEL: func.func @temporary
// CHECK: %[[A:.*]] = memref.alloc() : memref<4xf32>
// CHECK: %[[S:.*]] = memref.subview %[[A]]
// CHECK: memref.load %[[S]]
// CHECK-NEXT: memref.dealloc %[[A]] : memref<4xf32>
// CHECK-NEXT: return
func.func @temporary(%i: index) -> f32 {
  %a = memref.alloc() : memref<4xf32>
  %s = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  %x = memref.load %s[%i] : memref<2xf32, strided<[1]>>
  return %x : f32
}

// -----

// A returned argument is copied: the caller owns what a function returns.
// CHECK-LABEL: func.func @return_arg
// CHECK: %[[C:.*]] = memref.alloc() : memref<2xf32>
// CHECK: memref.copy %{{.*}}, %[[C]] :
// CHECK: return %[[C]]
func.func @return_arg(%m: memref<2xf32>) -> memref<2xf32> {
  return %m : memref<2xf32>
}

// -----

// A loop that passes its buffer through keeps it; the function frees it after the loop.
// CHECK-LABEL: func.func @in_place_loop
// CHECK: %[[A:.*]] = memref.alloc()
// CHECK: scf.for
// CHECK-NOT: memref.dealloc
// CHECK: }
// CHECK: memref.load
// CHECK-NEXT: memref.dealloc %[[A]]
func.func @in_place_loop(%n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %z = arith.constant 0.0 : f32
  %a = memref.alloc() : memref<8xf32>
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%x = %a) -> (memref<8xf32>) {
    memref.store %z, %x[%i] : memref<8xf32>
    scf.yield %x : memref<8xf32>
  }
  %v = memref.load %r[%c0] : memref<8xf32>
  return %v : f32
}
