// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries" | filecheck %s
// RUN: mlkit-opt %s -split-input-file -one-shot-bufferize="bufferize-function-boundaries test-analysis-only" | filecheck %s --check-prefix=ANALYSIS

// scf.forall with shared outputs: each output becomes a buffer (its region
// argument and its result), each tensor.parallel_insert_slice a subview of
// that buffer and a copy of the tile into it, in the body before the (now
// empty) terminator, as upstream's ForallOpInterface and
// ParallelInsertSliceOpInterface bufferize them.

// CHECK-LABEL: func.func @tiled_fill(
//  CHECK-SAME:     %[[N:.*]]: index) -> memref<?xf32> {
//       CHECK:   %[[ALLOC:.*]] = memref.alloc(%[[N]]) {alignment = 64 : i64} : memref<?xf32>
//   CHECK-NOT:   memref.copy
//       CHECK:   scf.forall (%[[I:.*]]) in (4) {
//       CHECK:     %[[TILE:.*]] = memref.subview %[[ALLOC]][%[[I]]] [2] [1]
//       CHECK:     linalg.fill ins(%{{.*}} : f32) outs(%[[TILE]] :
//       CHECK:     %[[DEST:.*]] = memref.subview %[[ALLOC]][%[[I]]] [2] [1]
//       CHECK:     memref.copy %[[TILE]], %[[DEST]]
//  CHECK-NEXT:   }
//  CHECK-NEXT:   return %[[ALLOC]] : memref<?xf32>

// ANALYSIS-LABEL: func.func @tiled_fill(
//       ANALYSIS:   linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
//       ANALYSIS:   tensor.parallel_insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true", "none"]}
//       ANALYSIS:   } {__inplace_operands_attr__ = ["true"]}
func.func @tiled_fill(%n: index) -> tensor<?xf32> {
  %cst = arith.constant 1.0 : f32
  %e = tensor.empty(%n) : tensor<?xf32>
  %r = scf.forall (%i) in (4) shared_outs(%o = %e) -> (tensor<?xf32>) {
    %s = tensor.extract_slice %o[%i] [2] [1] : tensor<?xf32> to tensor<2xf32>
    %f = linalg.fill ins(%cst : f32) outs(%s : tensor<2xf32>) -> tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [2] [1] : tensor<2xf32> into tensor<?xf32>
    }
  }
  return %r : tensor<?xf32>
}

// -----

// The shared output is read after the loop: the loop writes into a copy.

// CHECK-LABEL: func.func @out_of_place(
//  CHECK-SAME:     %[[T:.*]]: memref<8xf32, strided<[?], offset: ?>>)
//       CHECK:   %[[ALLOC:.*]] = memref.alloc() {alignment = 64 : i64} : memref<8xf32>
//       CHECK:   memref.copy %[[T]], %[[ALLOC]]
//       CHECK:   scf.forall (%[[I:.*]]) in (4) {
//       CHECK:     %[[TILE:.*]] = memref.subview %[[ALLOC]][%[[I]]] [2] [1]
//       CHECK:     linalg.fill ins(%{{.*}} : f32) outs(%[[TILE]] :
//       CHECK:     memref.copy %[[TILE]], %{{.*}}
//       CHECK:   }
//       CHECK:   %[[V:.*]] = memref.load %[[T]][%{{.*}}]
//       CHECK:   return %[[ALLOC]], %[[V]]

// ANALYSIS-LABEL: func.func @out_of_place(
//       ANALYSIS:   } {__inplace_operands_attr__ = ["false"]}
func.func @out_of_place(%t: tensor<8xf32>) -> (tensor<8xf32>, f32) {
  %c0 = arith.constant 0 : index
  %cst = arith.constant 1.0 : f32
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<8xf32>) {
    %s = tensor.extract_slice %o[%i] [2] [1] : tensor<8xf32> to tensor<2xf32>
    %f = linalg.fill ins(%cst : f32) outs(%s : tensor<2xf32>) -> tensor<2xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %f into %o[%i] [2] [1] : tensor<2xf32> into tensor<8xf32>
    }
  }
  %v = tensor.extract %t[%c0] : tensor<8xf32>
  return %r, %v : tensor<8xf32>, f32
}

// -----

// Bounds, steps and the mapping stay; two shared outputs get a buffer each.

// CHECK-LABEL: func.func @two_outputs(
//  CHECK-SAME:     %[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[B:.*]]: memref<?xi32, strided<[?], offset: ?>>, %[[LB:.*]]: index, %[[UB:.*]]: index, %[[S:.*]]: index)
//       CHECK:   scf.forall (%[[I:.*]]) = (%[[LB]]) to (%[[UB]]) step (%[[S]]) {
//       CHECK:     memref.subview %[[A]][%[[I]]] [1] [1]
//       CHECK:     memref.copy
//       CHECK:     memref.subview %[[B]][%[[I]]] [1] [1]
//       CHECK:     memref.copy
//  CHECK-NEXT:   } {mapping = [#gpu.thread<x>]}
//  CHECK-NEXT:   return %[[A]], %[[B]]
func.func @two_outputs(%a: tensor<?xf32>, %b: tensor<?xi32>, %lb: index, %ub: index, %s: index)
    -> (tensor<?xf32>, tensor<?xi32>) {
  %r:2 = scf.forall (%i) = (%lb) to (%ub) step (%s) shared_outs(%x = %a, %y = %b)
      -> (tensor<?xf32>, tensor<?xi32>) {
    %c1 = arith.constant 1.0 : f32
    %c2 = arith.constant 2 : i32
    %ex = tensor.empty() : tensor<1xf32>
    %ey = tensor.empty() : tensor<1xi32>
    %h = linalg.fill ins(%c1 : f32) outs(%ex : tensor<1xf32>) -> tensor<1xf32>
    %g = linalg.fill ins(%c2 : i32) outs(%ey : tensor<1xi32>) -> tensor<1xi32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %h into %x[%i] [1] [1] : tensor<1xf32> into tensor<?xf32>
      tensor.parallel_insert_slice %g into %y[%i] [1] [1] : tensor<1xi32> into tensor<?xi32>
    }
  } {mapping = [#gpu.thread<x>]}
  return %r#0, %r#1 : tensor<?xf32>, tensor<?xi32>
}

// -----

// A buffer defined outside the loop and written inside it is private to each
// thread (upstream's parallel-region check): the fill gets its own buffer.

// CHECK-LABEL: func.func @parallel_region(
//       CHECK:   %[[OUT:.*]] = memref.alloc() {alignment = 64 : i64} : memref<320xf32>
//       CHECK:   scf.forall (%[[I:.*]]) in (320) {
//       CHECK:     %[[PRIVATE:.*]] = memref.alloc() {alignment = 64 : i64} : memref<1xf32>
//       CHECK:     linalg.fill ins(%{{.*}} : f32) outs(%[[PRIVATE]] : memref<1xf32>)
//       CHECK:     %[[DEST:.*]] = memref.subview %[[OUT]][%[[I]]] [1] [1]
//       CHECK:     memref.copy %[[PRIVATE]], %[[DEST]]

// ANALYSIS-LABEL: func.func @parallel_region(
//       ANALYSIS:   linalg.fill {__inplace_operands_attr__ = ["none", "false"]}
//       ANALYSIS:   tensor.parallel_insert_slice {{.*}} {__inplace_operands_attr__ = ["true", "true", "none"]}
//       ANALYSIS:   } {__inplace_operands_attr__ = ["true"]}
func.func @parallel_region() -> tensor<320xf32> {
  %alloc0 = bufferization.alloc_tensor() : tensor<320xf32>
  %alloc1 = bufferization.alloc_tensor() : tensor<1xf32>
  %0 = scf.forall (%i) in (320) shared_outs(%o = %alloc0) -> (tensor<320xf32>) {
    %j = arith.index_cast %i : index to i32
    %val = arith.sitofp %j : i32 to f32
    %fill = linalg.fill ins(%val : f32) outs(%alloc1 : tensor<1xf32>) -> tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %fill into %o[%i] [1] [1] : tensor<1xf32> into tensor<320xf32>
    }
  }
  return %0 : tensor<320xf32>
}

// -----

// One iteration is not a parallel region: the fill writes in place.

// ANALYSIS-LABEL: func.func @single_iteration(
//       ANALYSIS:   linalg.fill {__inplace_operands_attr__ = ["none", "true"]}
func.func @single_iteration() -> tensor<320xf32> {
  %alloc0 = bufferization.alloc_tensor() : tensor<320xf32>
  %alloc1 = bufferization.alloc_tensor() : tensor<1xf32>
  %cst = arith.constant 1.0 : f32
  %0 = scf.forall (%i) in (1) shared_outs(%o = %alloc0) -> (tensor<320xf32>) {
    %fill = linalg.fill ins(%cst : f32) outs(%alloc1 : tensor<1xf32>) -> tensor<1xf32>
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %fill into %o[%i] [1] [1] : tensor<1xf32> into tensor<320xf32>
    }
  }
  return %0 : tensor<320xf32>
}

// -----

// A forall without shared outputs keeps its body's bufferization.

// CHECK-LABEL: func.func @no_outputs(
//       CHECK:   scf.forall (%[[I:.*]]) in (4) {
//       CHECK:     memref.store %{{.*}}, %{{.*}}[%[[I]]]
//       CHECK:   }
func.func @no_outputs(%m: memref<4xf32>, %t: tensor<4xf32>) {
  scf.forall (%i) in (4) {
    %v = tensor.extract %t[%i] : tensor<4xf32>
    memref.store %v, %m[%i] : memref<4xf32>
  }
  return
}
