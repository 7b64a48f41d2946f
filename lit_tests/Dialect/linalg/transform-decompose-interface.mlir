// RUN: mlkit-opt %s -transform-interpreter | FileCheck %s
// RUN: mlkit-opt %s -transform-interpreter | mlkit-opt | FileCheck %s

// decompose_interface turns the softmax into the fills and generics of
// linalg-decompose-aggregated-ops; its result handle is the last generic,
// which the script then tiles. The other ops stay as they are.

// CHECK-LABEL: func.func @softmax
// CHECK:         linalg.fill
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.maxnumf
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:           math.exp
// CHECK:         linalg.fill
// CHECK:         linalg.generic {{.*}}iterator_types = ["parallel", "reduction"]
// CHECK:           arith.addf
// CHECK:         scf.for
// CHECK:           linalg.generic {{.*}}iterator_types = ["parallel", "parallel"]
// CHECK:             arith.divf
// CHECK:         linalg.copy
// CHECK-NOT:     linalg.softmax dimension
module attributes {transform.with_named_sequence} {
  func.func @softmax(%x: tensor<8x16xf32>, %dst: tensor<8x16xf32>) -> tensor<8x16xf32> {
    %0 = linalg.softmax dimension(1) ins(%x : tensor<8x16xf32>) outs(%dst : tensor<8x16xf32>) -> tensor<8x16xf32>
    %1 = linalg.copy ins(%0 : tensor<8x16xf32>) outs(%dst : tensor<8x16xf32>) -> tensor<8x16xf32>
    return %1 : tensor<8x16xf32>
  }
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.softmax"]} in %root : (!transform.any_op) -> !transform.any_op
    %1 = transform.structured.decompose_interface %0 : (!transform.any_op) -> !transform.any_op
    %2, %loop = transform.structured.tile_using_for %1 tile_sizes [4] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
