// convert-bufferization-to-memref: a clone becomes an allocation of the same
// shape (dynamic sizes read with memref.dim, identity layout, cast back to a
// strided type) and a copy; an unranked clone gathers its sizes in a loop and
// reshapes the flat buffer.
// RUN: mlkit-opt %s -p 'builtin.module(convert-bufferization-to-memref)' --split-input-file | filecheck %s

// CHECK-LABEL: func.func @ranked
// CHECK-SAME: (%[[A:.*]]: memref<4x8xf32>, %[[B:.*]]: memref<?x8xf32>, %[[C:.*]]: memref<?x?xf32, strided<[?, 1], offset: ?>>)
// CHECK-NEXT:   %[[RA:.*]] = memref.alloc() : memref<4x8xf32>
// CHECK-NEXT:   memref.copy %[[A]], %[[RA]] : memref<4x8xf32> to memref<4x8xf32>
// CHECK-NEXT:   %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[D0:.*]] = memref.dim %[[B]], %[[C0]] : memref<?x8xf32>
// CHECK-NEXT:   %[[RB:.*]] = memref.alloc(%[[D0]]) : memref<?x8xf32>
// CHECK-NEXT:   memref.copy %[[B]], %[[RB]]
// CHECK:        %[[RC:.*]] = memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xf32>
// CHECK-NEXT:   %[[CAST:.*]] = memref.cast %[[RC]] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1], offset: ?>>
// CHECK-NEXT:   memref.copy %[[C]], %[[CAST]]
// CHECK-NEXT:   return %[[RA]], %[[RB]], %[[CAST]]
func.func @ranked(%a: memref<4x8xf32>, %b: memref<?x8xf32>, %c: memref<?x?xf32, strided<[?, 1], offset: ?>>) -> (memref<4x8xf32>, memref<?x8xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>) {
  %0 = bufferization.clone %a : memref<4x8xf32> to memref<4x8xf32>
  %1 = bufferization.clone %b : memref<?x8xf32> to memref<?x8xf32>
  %2 = bufferization.clone %c : memref<?x?xf32, strided<[?, 1], offset: ?>> to memref<?x?xf32, strided<[?, 1], offset: ?>>
  return %0, %1, %2 : memref<4x8xf32>, memref<?x8xf32>, memref<?x?xf32, strided<[?, 1], offset: ?>>
}

// -----

// CHECK-LABEL: func.func @unranked
// CHECK-SAME: (%[[U:.*]]: memref<*xf32>)
// CHECK:        %[[RANK:.*]] = memref.rank %[[U]] : memref<*xf32>
// CHECK-NEXT:   %[[SHAPE:.*]] = memref.alloca(%[[RANK]]) : memref<?xindex>
// CHECK-NEXT:   %[[N:.*]] = scf.for %[[I:.*]] = %{{.*}} to %[[RANK]] step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (index) {
// CHECK-NEXT:     %[[D:.*]] = memref.dim %[[U]], %[[I]] : memref<*xf32>
// CHECK-NEXT:     memref.store %[[D]], %[[SHAPE]][%[[I]]] : memref<?xindex>
// CHECK-NEXT:     %[[M:.*]] = arith.muli %[[ACC]], %[[D]] : index
// CHECK-NEXT:     scf.yield %[[M]] : index
// CHECK:        %[[FLAT:.*]] = memref.alloc(%[[N]]) : memref<?xf32>
// CHECK-NEXT:   %[[VIEW:.*]] = memref.reshape %[[FLAT]](%[[SHAPE]]) : (memref<?xf32>, memref<?xindex>) -> memref<*xf32>
// CHECK-NEXT:   memref.copy %[[U]], %[[VIEW]] : memref<*xf32> to memref<*xf32>
func.func @unranked(%u: memref<*xf32>) -> memref<*xf32> {
  %0 = bufferization.clone %u : memref<*xf32> to memref<*xf32>
  return %0 : memref<*xf32>
}
