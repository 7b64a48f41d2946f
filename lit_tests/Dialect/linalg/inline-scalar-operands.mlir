// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-inline-scalar-operands | filecheck %s

// A rank-0 input is extracted inside the body.

// CHECK-LABEL: func.func @rank_zero_input
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<6xf32>, %[[S:[^:]+]]: tensor<f32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<6xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:    %[[V:.+]] = tensor.extract %[[S]][] : tensor<f32>
// CHECK-NEXT:    arith.subf %[[A]], %[[V]] : f32
func.func @rank_zero_input(%x: tensor<6xf32>, %s: tensor<f32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<6xf32>, tensor<f32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// An input read at a constant index is extracted there; the index constant
// goes to the start of the function.

// CHECK-LABEL: func.func @constant_index_input
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<6xf32>, %[[S:[^:]+]]: tensor<3xf32>)
// CHECK-NEXT:  %[[C2:.+]] = arith.constant 2 : index
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%[[X]] : tensor<6xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:    %[[V:.+]] = tensor.extract %[[S]][%[[C2]]] : tensor<3xf32>
// CHECK-NEXT:    arith.mulf %[[A]], %[[V]] : f32
func.func @constant_index_input(%x: tensor<6xf32>, %s: tensor<3xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (2)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<6xf32>, tensor<3xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// A scalar input is used as it is.

// CHECK-LABEL: func.func @scalar_input
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<6xf32>, %[[S:[^:]+]]: f32)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%[[X]] : tensor<6xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:    arith.divf %[[A]], %[[S]] : f32
func.func @scalar_input(%x: tensor<6xf32>, %s: f32) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %s : tensor<6xf32>, f32) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.divf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6xf32>
  return %0 : tensor<6xf32>
}

// -----

// Several such inputs, anywhere among the inputs, in a 2-d op: each is
// extracted at its own indices, the last one first.

// CHECK-LABEL: func.func @several_inputs
// CHECK-SAME:  (%[[P:[^:]+]]: tensor<2x3xi32>, %[[X:[^:]+]]: tensor<4x5xi32>, %[[Q:[^:]+]]: tensor<i32>)
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:  ins(%[[X]] : tensor<4x5xi32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: i32, %{{[^:]+}}: i32):
// CHECK-NEXT:    %[[VQ:.+]] = tensor.extract %[[Q]][] : tensor<i32>
// CHECK-NEXT:    %[[VP:.+]] = tensor.extract %[[P]][%[[C1]], %[[C2]]] : tensor<2x3xi32>
// CHECK-NEXT:    %[[S:.+]] = arith.addi %[[VP]], %[[A]] : i32
// CHECK-NEXT:    arith.muli %[[S]], %[[VQ]] : i32
func.func @several_inputs(%p: tensor<2x3xi32>, %x: tensor<4x5xi32>, %q: tensor<i32>) -> tensor<4x5xi32> {
  %e = tensor.empty() : tensor<4x5xi32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (1, 2)>, affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%p, %x, %q : tensor<2x3xi32>, tensor<4x5xi32>, tensor<i32>) outs(%e : tensor<4x5xi32>) {
  ^bb0(%a: i32, %b: i32, %c: i32, %o: i32):
    %s = arith.addi %a, %b : i32
    %r = arith.muli %s, %c : i32
    linalg.yield %r : i32
  } -> tensor<4x5xi32>
  return %0 : tensor<4x5xi32>
}

// -----

// Inputs read through non-constant maps, and ops on memrefs, are left alone.

// CHECK-LABEL: func.func @left_alone
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (d0)>]
// CHECK-SAME:  ins(%{{.+}} : tensor<1x6xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>]
// CHECK-SAME:  ins(%{{.+}} : memref<f32>)
func.func @left_alone(%x: tensor<1x6xf32>, %m: memref<f32>, %out: memref<6xf32>) -> tensor<6xf32> {
  %e = tensor.empty() : tensor<6xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (0, i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x : tensor<1x6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<6xf32>
  linalg.generic {indexing_maps = [affine_map<(i) -> ()>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%m : memref<f32>) outs(%out : memref<6xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return %0 : tensor<6xf32>
}
