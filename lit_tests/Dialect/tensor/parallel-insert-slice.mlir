// RUN: mlkit-opt %s -split-input-file | mlkit-opt -split-input-file | FileCheck %s

// CHECK-LABEL: func.func @forall_tiles
// CHECK:         scf.forall (%[[I:[a-z0-9_]+]]) in (4) shared_outs(%[[O:[a-z0-9_]+]] = %{{.*}}) -> (tensor<?xf32>)
// CHECK:           scf.forall.in_parallel {
// CHECK-NEXT:        tensor.parallel_insert_slice %{{.*}} into %[[O]][%[[I]]] [2] [1] : tensor<2xf32> into tensor<?xf32>
// CHECK-NEXT:      }
func.func @forall_tiles(%t: tensor<?xf32>, %v: tensor<2xf32>) -> tensor<?xf32> {
  %r = scf.forall (%i) in (4) shared_outs(%o = %t) -> (tensor<?xf32>) {
    scf.forall.in_parallel {
      tensor.parallel_insert_slice %v into %o[%i] [2] [1] : tensor<2xf32> into tensor<?xf32>
    }
  }
  return %r : tensor<?xf32>
}
