// RUN: mlkit-opt --mlir-print-local-scope %s -p 'builtin.module(func.func(convert-elementwise-to-linalg))' -split-input-file | filecheck %s

// A rank-0 binary op: maps without loops, the first operand of the result's
// type as the init, and the op itself on elements in the body.

// CHECK-LABEL: func.func @subf_rank0
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<f32>, %[[B:[^:]+]]: tensor<f32>)
// CHECK:       %{{.+}} = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
// CHECK-SAME:  ins(%[[A]], %[[B]] : tensor<f32>, tensor<f32>) outs(%[[A]] : tensor<f32>)
// CHECK-NEXT:  ^{{.*}}(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:    %[[R:.+]] = arith.subf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
// CHECK-NEXT:  } -> tensor<f32>
func.func @subf_rank0(%a: tensor<f32>, %b: tensor<f32>) -> tensor<f32> {
  %0 = arith.subf %a, %b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// One parallel loop per dimension, identity maps.

// CHECK-LABEL: func.func @muli_rank2
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<?x7xi32>, %[[B:[^:]+]]: tensor<?x7xi32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:  ins(%[[A]], %[[B]] : tensor<?x7xi32>, tensor<?x7xi32>) outs(%[[A]] : tensor<?x7xi32>)
// CHECK:         arith.muli
func.func @muli_rank2(%a: tensor<?x7xi32>, %b: tensor<?x7xi32>) -> tensor<?x7xi32> {
  %0 = arith.muli %a, %b : tensor<?x7xi32>
  return %0 : tensor<?x7xi32>
}

// -----

// math ops convert too, keeping their attributes.

// CHECK-LABEL: func.func @math_sqrt
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<4xf32>)
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%[[A]] : tensor<4xf32>) outs(%[[A]] : tensor<4xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[X:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:    %[[R:.+]] = math.sqrt %[[X]] fastmath<nnan,ninf> : f32
// CHECK-NEXT:    linalg.yield %[[R]] : f32
func.func @math_sqrt(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = math.sqrt %a fastmath<nnan,ninf> : tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// Operands of different types; the init is the first operand of the result's.

// CHECK-LABEL: func.func @select_tensors
// CHECK-SAME:  (%[[C:[^:]+]]: tensor<3xi1>, %[[T:[^:]+]]: tensor<3xi64>, %[[F:[^:]+]]: tensor<3xi64>)
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%[[C]], %[[T]], %[[F]] : tensor<3xi1>, tensor<3xi64>, tensor<3xi64>) outs(%[[T]] : tensor<3xi64>)
// CHECK-NEXT:  ^{{.*}}(%[[P:[^:]+]]: i1, %[[X:[^:]+]]: i64, %[[Y:[^:]+]]: i64, %{{[^:]+}}: i64):
// CHECK-NEXT:    arith.select %[[P]], %[[X]], %[[Y]] : i64
func.func @select_tensors(%c: tensor<3xi1>, %t: tensor<3xi64>, %f: tensor<3xi64>) -> tensor<3xi64> {
  %0 = arith.select %c, %t, %f : tensor<3xi1>, tensor<3xi64>
  return %0 : tensor<3xi64>
}

// -----

// A scalar condition with tensor operands: the scalar is read through a map
// with no results.

// CHECK-LABEL: func.func @select_scalar_condition
// CHECK-SAME:  (%[[C:[^:]+]]: i1, %[[T:[^:]+]]: tensor<?xf32>, %[[F:[^:]+]]: tensor<?xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME:  ins(%[[C]], %[[T]], %[[F]] : i1, tensor<?xf32>, tensor<?xf32>) outs(%[[T]] : tensor<?xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[P:[^:]+]]: i1, %[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{[^:]+}}: f32):
// CHECK-NEXT:    arith.select %[[P]], %[[X]], %[[Y]] : f32
func.func @select_scalar_condition(%c: i1, %t: tensor<?xf32>, %f: tensor<?xf32>) -> tensor<?xf32> {
  %0 = arith.select %c, %t, %f : tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// No operand has the result's type: a tensor.empty shaped like the first
// operand, its dynamic sizes read with tensor.dim.

// CHECK-LABEL: func.func @cmpf_mixed_shape
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<2x?x5x?xf32>, %[[B:[^:]+]]: tensor<2x?x5x?xf32>)
// CHECK:       %[[C1:.+]] = arith.constant 1 : index
// CHECK-NEXT:  %[[D1:.+]] = tensor.dim %[[A]], %[[C1]] : tensor<2x?x5x?xf32>
// CHECK-NEXT:  %[[C3:.+]] = arith.constant 3 : index
// CHECK-NEXT:  %[[D3:.+]] = tensor.dim %[[A]], %[[C3]] : tensor<2x?x5x?xf32>
// CHECK-NEXT:  %[[E:.+]] = tensor.empty(%[[D1]], %[[D3]]) : tensor<2x?x5x?xi1>
// CHECK-NEXT:  linalg.generic
// CHECK-SAME:  ins(%[[A]], %[[B]] : tensor<2x?x5x?xf32>, tensor<2x?x5x?xf32>) outs(%[[E]] : tensor<2x?x5x?xi1>)
// CHECK-NEXT:  ^{{.*}}(%{{[^:]+}}: f32, %{{[^:]+}}: f32, %{{[^:]+}}: i1):
// CHECK-NEXT:    arith.cmpf ogt, %{{.+}}, %{{.+}} : f32
func.func @cmpf_mixed_shape(%a: tensor<2x?x5x?xf32>, %b: tensor<2x?x5x?xf32>) -> tensor<2x?x5x?xi1> {
  %0 = arith.cmpf ogt, %a, %b : tensor<2x?x5x?xf32>
  return %0 : tensor<2x?x5x?xi1>
}

// -----

// A cast to another element type gets a static tensor.empty.

// CHECK-LABEL: func.func @extf_static
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<8xf64>
// CHECK-NEXT:  linalg.generic
// CHECK-SAME:  outs(%[[E]] : tensor<8xf64>)
// CHECK:         arith.extf %{{.+}} : f32 to f64
func.func @extf_static(%a: tensor<8xf32>) -> tensor<8xf64> {
  %0 = arith.extf %a : tensor<8xf32> to tensor<8xf64>
  return %0 : tensor<8xf64>
}

// -----

// Ops on scalars and vectors, and constants, are left alone.

// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:   linalg.generic
// CHECK:       arith.addf %{{.+}}, %{{.+}} : f32
// CHECK-NEXT:  arith.addf %{{.+}}, %{{.+}} : vector<4xf32>
// CHECK-NEXT:  arith.constant dense<1.000000e+00> : tensor<4xf32>
func.func @left_alone(%s: f32, %v: vector<4xf32>) -> (f32, vector<4xf32>, tensor<4xf32>) {
  %0 = arith.addf %s, %s : f32
  %1 = arith.addf %v, %v : vector<4xf32>
  %3 = arith.constant dense<1.0> : tensor<4xf32>
  return %0, %1, %3 : f32, vector<4xf32>, tensor<4xf32>
}
