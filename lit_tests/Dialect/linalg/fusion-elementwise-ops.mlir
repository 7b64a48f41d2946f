// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -linalg-fuse-elementwise-ops | filecheck %s

// Two elementwise generics become one: the producer's inputs join the
// consumer's, and its payload runs first.

// CHECK-LABEL: func.func @sub_then_div
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<?x?xf32>, %[[Y:[^:]+]]: tensor<?x?xf32>, %[[Z:[^:]+]]: tensor<?x?xf32>)
// CHECK:       %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} ins(%[[X]], %[[Y]], %[[Z]] : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x?xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32, %[[C:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[S:.+]] = arith.subf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[Q:.+]] = arith.divf %[[S]], %[[C]] : f32
// CHECK-NEXT:    linalg.yield %[[Q]] : f32
// CHECK-NOT:   linalg.generic
// CHECK:       return %[[R]]

#id = affine_map<(i, j) -> (i, j)>
func.func @sub_then_div(%x: tensor<?x?xf32>, %y: tensor<?x?xf32>, %z: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %m = tensor.dim %x, %c1 : tensor<?x?xf32>
  %init = tensor.empty(%n, %m) : tensor<?x?xf32>
  %diff = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    linalg.yield %s : f32
  } -> tensor<?x?xf32>
  %quot = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%diff, %z : tensor<?x?xf32>, tensor<?x?xf32>) outs(%init : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %q = arith.divf %a, %b : f32
    linalg.yield %q : f32
  } -> tensor<?x?xf32>
  return %quot : tensor<?x?xf32>
}

// -----

// Scalar inputs of both ops stay scalar inputs, mapped to ().

// CHECK-LABEL: func.func @scalar_operands
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<8x?xf32>, %[[S:[^:]+]]: f32, %[[T:[^:]+]]: f32)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> ()>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:  ins(%[[X]], %[[S]], %[[T]] : tensor<8x?xf32>, f32, f32)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32, %[[C:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[P:.+]] = arith.addf %[[M]], %[[C]] : f32
// CHECK-NEXT:    linalg.yield %[[P]] : f32
// CHECK-NOT:   linalg.generic

#id = affine_map<(i, j) -> (i, j)>
#sc = affine_map<(i, j) -> ()>
func.func @scalar_operands(%x: tensor<8x?xf32>, %s: f32, %t: f32) -> tensor<8x?xf32> {
  %c1 = arith.constant 1 : index
  %m = tensor.dim %x, %c1 : tensor<8x?xf32>
  %init = tensor.empty(%m) : tensor<8x?xf32>
  %0 = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %s : tensor<8x?xf32>, f32) outs(%init : tensor<8x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x?xf32>
  %1 = linalg.generic {indexing_maps = [#id, #sc, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %t : tensor<8x?xf32>, f32) outs(%init : tensor<8x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<8x?xf32>
  return %1 : tensor<8x?xf32>
}

// -----

// A producer input read transposed keeps its transposed map.

// CHECK-LABEL: func.func @producer_reads_transposed
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:         arith.addf
// CHECK-NEXT:    arith.mulf
// CHECK-NOT:   linalg.generic

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
func.func @producer_reads_transposed(%x: tensor<6x6xf32>, %y: tensor<6x6xf32>, %z: tensor<6x6xf32>) -> tensor<6x6xf32> {
  %init = tensor.empty() : tensor<6x6xf32>
  %0 = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<6x6xf32>, tensor<6x6xf32>) outs(%init : tensor<6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6x6xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %z : tensor<6x6xf32>, tensor<6x6xf32>) outs(%init : tensor<6x6xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<6x6xf32>
  return %1 : tensor<6x6xf32>
}

// -----

// The consumer reads the producer's result transposed: the producer's
// operands are read transposed in the fused op.

// CHECK-LABEL: func.func @consumer_reads_transposed
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<3x5xf32>, %[[Y:[^:]+]]: tensor<3x5xf32>, %[[Z:[^:]+]]: tensor<5x3xf32>)
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<5x3xf32>
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:  ins(%[[X]], %[[Y]], %[[Z]] : tensor<3x5xf32>, tensor<3x5xf32>, tensor<5x3xf32>) outs(%[[E]] : tensor<5x3xf32>)
// CHECK-NOT:   linalg.generic

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
func.func @consumer_reads_transposed(%x: tensor<3x5xf32>, %y: tensor<3x5xf32>, %z: tensor<5x3xf32>) -> tensor<5x3xf32> {
  %init = tensor.empty() : tensor<3x5xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<3x5xf32>, tensor<3x5xf32>) outs(%init : tensor<3x5xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<3x5xf32>
  %init2 = tensor.empty() : tensor<5x3xf32>
  %1 = linalg.generic {indexing_maps = [#tr, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %z : tensor<3x5xf32>, tensor<5x3xf32>) outs(%init2 : tensor<5x3xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<5x3xf32>
  return %1 : tensor<5x3xf32>
}

// -----

// A 1-d producer broadcast along the consumer's rows: its inputs are read
// with the consumer's map for the broadcast operand.

// CHECK-LABEL: func.func @broadcast_into_consumer
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK:         %[[MAX:.+]] = arith.maximumf
// CHECK-NEXT:    arith.subf %{{.+}}, %[[MAX]] : f32
// CHECK-NOT:   linalg.generic

#id2 = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
#id1 = affine_map<(i) -> (i)>
func.func @broadcast_into_consumer(%x: tensor<?xf32>, %y: tensor<?xf32>, %z: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %init1 = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [#id1, #id1, #id1], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%init1 : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.maximumf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %m = tensor.dim %z, %c1 : tensor<?x?xf32>
  %init2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [#row, #id2, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%0, %z : tensor<?xf32>, tensor<?x?xf32>) outs(%init2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %b, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// Ops without loops fuse too.

// CHECK-LABEL: func.func @rank_zero
// CHECK:       linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
// CHECK:         arith.xori
// CHECK-NEXT:    arith.andi
// CHECK-NOT:   linalg.generic

#s = affine_map<() -> ()>
func.func @rank_zero(%x: tensor<i32>, %y: tensor<i32>, %z: tensor<i32>) -> tensor<i32> {
  %init = tensor.empty() : tensor<i32>
  %0 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%x, %y : tensor<i32>, tensor<i32>) outs(%init : tensor<i32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.xori %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  %1 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%0, %z : tensor<i32>, tensor<i32>) outs(%init : tensor<i32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.andi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<i32>
  return %1 : tensor<i32>
}

// -----

// A splat constant input becomes a scalar constant read in the body.

// CHECK-LABEL: func.func @splat_constant_input
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<4x?x?xf32>)
// CHECK-DAG:   %[[CST:.+]] = arith.constant 2.500000e+00 : f32
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>, affine_map<(d0, d1, d2) -> (d0, d1, d2)>]
// CHECK-SAME:  ins(%[[X]] : tensor<4x?x?xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    arith.mulf %[[CST]], %[[A]] : f32
// CHECK-NOT:   dense<

#first = affine_map<(i, j, k) -> (i)>
#id3 = affine_map<(i, j, k) -> (i, j, k)>
func.func @splat_constant_input(%x: tensor<4x?x?xf32>) -> tensor<4x?x?xf32> {
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %cst = arith.constant dense<2.5> : tensor<4xf32>
  %d1 = tensor.dim %x, %c1 : tensor<4x?x?xf32>
  %d2 = tensor.dim %x, %c2 : tensor<4x?x?xf32>
  %init = tensor.empty(%d1, %d2) : tensor<4x?x?xf32>
  %0 = linalg.generic {indexing_maps = [#first, #id3, #id3], iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%cst, %x : tensor<4xf32>, tensor<4x?x?xf32>) outs(%init : tensor<4x?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<4x?x?xf32>
  return %0 : tensor<4x?x?xf32>
}

// -----

// So does a rank-0 constant tensor.

// CHECK-LABEL: func.func @rank_zero_constant_input
// CHECK-DAG:   %[[C7:.+]] = arith.constant 7 : i32
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:    arith.muli %[[C7]], %[[A]] : i32

#none = affine_map<(i, j) -> ()>
#id = affine_map<(i, j) -> (i, j)>
func.func @rank_zero_constant_input(%x: tensor<?x3xi32>) -> tensor<?x3xi32> {
  %c0 = arith.constant 0 : index
  %cst = arith.constant dense<7> : tensor<i32>
  %d0 = tensor.dim %x, %c0 : tensor<?x3xi32>
  %init = tensor.empty(%d0) : tensor<?x3xi32>
  %0 = linalg.generic {indexing_maps = [#none, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%cst, %x : tensor<i32>, tensor<?x3xi32>) outs(%init : tensor<?x3xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.muli %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<?x3xi32>
  return %0 : tensor<?x3xi32>
}

// -----

// Scalar constant inputs are read directly, even when only yielded.

// CHECK-LABEL: func.func @scalar_constants_into_body
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<?xf32>)
// CHECK-DAG:   %[[HALF:.+]] = arith.constant 5.000000e-01 : f32
// CHECK-DAG:   %[[SEVEN:.+]] = arith.constant 7 : i64
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]
// CHECK-SAME:  ins(%[[X]] : tensor<?xf32>)
// CHECK:         %[[M:.+]] = arith.mulf %{{.+}}, %[[HALF]] : f32
// CHECK-NEXT:    linalg.yield %[[M]], %[[SEVEN]] : f32, i64

func.func @scalar_constants_into_body(%x: tensor<?xf32>) -> (tensor<?xf32>, tensor<?xi64>) {
  %c0 = arith.constant 0 : index
  %half = arith.constant 0.5 : f32
  %seven = arith.constant 7 : i64
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e0 = tensor.empty(%n) : tensor<?xf32>
  %e1 = tensor.empty(%n) : tensor<?xi64>
  %0:2 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> ()>, affine_map<(i) -> ()>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %half, %seven : tensor<?xf32>, f32, i64) outs(%e0, %e1 : tensor<?xf32>, tensor<?xi64>) {
  ^bb0(%a: f32, %h: f32, %s: i64, %o0: f32, %o1: i64):
    %r = arith.mulf %a, %h : f32
    linalg.yield %r, %s : f32, i64
  } -> (tensor<?xf32>, tensor<?xi64>)
  return %0#0, %0#1 : tensor<?xf32>, tensor<?xi64>
}

// -----

// The consumer's linalg.index ops stay as they are.

// CHECK-LABEL: func.func @consumer_uses_index
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: i32, %[[B:[^:]+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:    %[[D:.+]] = arith.subi %[[A]], %[[B]] : i32
// CHECK-NEXT:    %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:    %[[J:.+]] = linalg.index 1 : index
// CHECK-NEXT:    %[[II:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:    %[[JJ:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[D]], %[[II]] : i32
// CHECK-NEXT:    %[[Q:.+]] = arith.addi %[[P]], %[[JJ]] : i32
// CHECK-NEXT:    linalg.yield %[[Q]] : i32
// CHECK-NOT:   linalg.generic

#id = affine_map<(i, j) -> (i, j)>
func.func @consumer_uses_index(%x: tensor<?x?xi32>, %y: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xi32>
  %m = tensor.dim %x, %c1 : tensor<?x?xi32>
  %init = tensor.empty(%n, %m) : tensor<?x?xi32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<?x?xi32>, tensor<?x?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.subi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<?x?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %p = arith.muli %a, %ii : i32
    %q = arith.addi %p, %jj : i32
    linalg.yield %q : i32
  } -> tensor<?x?xi32>
  return %1 : tensor<?x?xi32>
}

// -----

// The producer's linalg.index ops are read over the fused loops; the input
// both ops read becomes one.

// CHECK-LABEL: func.func @producer_uses_index
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<?x?xi32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:  ins(%[[X]] : tensor<?x?xi32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:    %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:    %[[J:.+]] = linalg.index 1 : index
// CHECK-NEXT:    %[[II:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:    %[[JJ:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[A]], %[[II]] : i32
// CHECK-NEXT:    %[[Q:.+]] = arith.subi %[[P]], %[[JJ]] : i32
// CHECK-NEXT:    %[[S:.+]] = arith.addi %[[Q]], %[[A]] : i32
// CHECK-NEXT:    linalg.yield %[[S]] : i32
// CHECK-NOT:   linalg.generic

#id = affine_map<(i, j) -> (i, j)>
func.func @producer_uses_index(%x: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xi32>
  %m = tensor.dim %x, %c1 : tensor<?x?xi32>
  %init = tensor.empty(%n, %m) : tensor<?x?xi32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %p = arith.muli %a, %ii : i32
    %q = arith.subi %p, %jj : i32
    linalg.yield %q : i32
  } -> tensor<?x?xi32>
  %1 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0, %x : tensor<?x?xi32>, tensor<?x?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.addi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  return %1 : tensor<?x?xi32>
}

// -----

// A transposed producer's loop indices are swapped in the fused op.

// CHECK-LABEL: func.func @both_use_index_transposed
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:    %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:    %[[J:.+]] = linalg.index 1 : index
// CHECK-NEXT:    %[[JJ:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:    %[[II:.+]] = arith.index_cast %[[I]] : index to i32
// CHECK-NEXT:    %[[P:.+]] = arith.addi %[[A]], %[[JJ]] : i32
// CHECK-NEXT:    %[[Q:.+]] = arith.subi %[[II]], %[[P]] : i32
// CHECK-NEXT:    %[[I2:.+]] = linalg.index 0 : index
// CHECK-NEXT:    %[[J2:.+]] = linalg.index 1 : index
// CHECK-NEXT:    %[[II2:.+]] = arith.index_cast %[[I2]] : index to i32
// CHECK-NEXT:    %[[JJ2:.+]] = arith.index_cast %[[J2]] : index to i32
// CHECK-NEXT:    %[[R:.+]] = arith.addi %[[Q]], %[[II2]] : i32
// CHECK-NEXT:    %[[S:.+]] = arith.muli %[[R]], %[[JJ2]] : i32
// CHECK-NEXT:    linalg.yield %[[S]] : i32
// CHECK-NOT:   linalg.generic

#tr = affine_map<(i, j) -> (j, i)>
#id = affine_map<(i, j) -> (i, j)>
func.func @both_use_index_transposed(%x: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = tensor.dim %x, %c0 : tensor<?x?xi32>
  %m = tensor.dim %x, %c1 : tensor<?x?xi32>
  %init = tensor.empty(%n, %m) : tensor<?x?xi32>
  %0 = linalg.generic {indexing_maps = [#tr, #tr], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %p = arith.addi %a, %ii : i32
    %q = arith.subi %jj, %p : i32
    linalg.yield %q : i32
  } -> tensor<?x?xi32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<?x?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ii = arith.index_cast %i : index to i32
    %jj = arith.index_cast %j : index to i32
    %p = arith.addi %a, %ii : i32
    %q = arith.muli %p, %jj : i32
    linalg.yield %q : i32
  } -> tensor<?x?xi32>
  return %1 : tensor<?x?xi32>
}

// -----

// A 1-d producer's only loop is the consumer's second one.

// CHECK-LABEL: func.func @indexed_1d_producer_into_2d
// CHECK-SAME:  (%[[V:[^:]+]]: tensor<?xi32>, %[[W:[^:]+]]: tensor<?x?xi32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>, affine_map<(d0, d1) -> (d0, d1)>]
// CHECK-SAME:  ins(%[[W]], %[[V]] : tensor<?x?xi32>, tensor<?xi32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: i32, %[[B:[^:]+]]: i32, %{{.+}}: i32):
// CHECK-NEXT:    %[[J:.+]] = linalg.index 1 : index
// CHECK-NEXT:    %[[JJ:.+]] = arith.index_cast %[[J]] : index to i32
// CHECK-NEXT:    %[[P:.+]] = arith.muli %[[B]], %[[JJ]] : i32
// CHECK-NEXT:    %[[S:.+]] = arith.subi %[[A]], %[[P]] : i32
// CHECK-NEXT:    linalg.yield %[[S]] : i32
// CHECK-NOT:   linalg.generic

#id1 = affine_map<(i) -> (i)>
#id2 = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @indexed_1d_producer_into_2d(%v: tensor<?xi32>, %w: tensor<?x?xi32>) -> tensor<?x?xi32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %k = tensor.dim %v, %c0 : tensor<?xi32>
  %e = tensor.empty(%k) : tensor<?xi32>
  %0 = linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%v : tensor<?xi32>) outs(%e : tensor<?xi32>) {
  ^bb0(%a: i32, %o: i32):
    %i = linalg.index 0 : index
    %ii = arith.index_cast %i : index to i32
    %r = arith.muli %a, %ii : i32
    linalg.yield %r : i32
  } -> tensor<?xi32>
  %n = tensor.dim %w, %c0 : tensor<?x?xi32>
  %m = tensor.dim %w, %c1 : tensor<?x?xi32>
  %init = tensor.empty(%n, %m) : tensor<?x?xi32>
  %1 = linalg.generic {indexing_maps = [#id2, #col, #id2], iterator_types = ["parallel", "parallel"]}
      ins(%w, %0 : tensor<?x?xi32>, tensor<?xi32>) outs(%init : tensor<?x?xi32>) {
  ^bb0(%a: i32, %b: i32, %o: i32):
    %r = arith.subi %a, %b : i32
    linalg.yield %r : i32
  } -> tensor<?x?xi32>
  return %1 : tensor<?x?xi32>
}

// -----

// A rank-0 producer that extracts from another tensor fuses into a 1-d
// consumer; the splat constant the consumer reads becomes a scalar.

// CHECK-LABEL: func.func @rank_zero_producer_extracts
// CHECK-SAME:  (%[[TABLE:[^:]+]]: tensor<6x1xf32>, %[[AT:[^:]+]]: tensor<i32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> ()>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
// CHECK-SAME:  ins(%[[AT]] : tensor<i32>)
// CHECK:         tensor.extract %[[TABLE]]
// CHECK:         arith.mulf
// CHECK-NOT:   linalg.generic

func.func @rank_zero_producer_extracts(%table: tensor<6x1xf32>, %at: tensor<i32>) -> tensor<9xf32> {
  %c0 = arith.constant 0 : index
  %ones = arith.constant dense<3.0> : tensor<9xf32>
  %e0 = tensor.empty() : tensor<f32>
  %0 = linalg.generic {indexing_maps = [affine_map<() -> ()>, affine_map<() -> ()>], iterator_types = []}
      ins(%at : tensor<i32>) outs(%e0 : tensor<f32>) {
  ^bb0(%a: i32, %o: f32):
    %i = arith.index_cast %a : i32 to index
    %v = tensor.extract %table[%i, %c0] : tensor<6x1xf32>
    linalg.yield %v : f32
  } -> tensor<f32>
  %e1 = tensor.empty() : tensor<9xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(d) -> ()>, affine_map<(d) -> (d)>, affine_map<(d) -> (d)>], iterator_types = ["parallel"]}
      ins(%0, %ones : tensor<f32>, tensor<9xf32>) outs(%e1 : tensor<9xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<9xf32>
  return %1 : tensor<9xf32>
}

// -----

// An elementwise producer fuses into a reduction.

// CHECK-LABEL: func.func @reduction_consumer
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<1x12xf32>, %[[Y:[^:]+]]: tensor<1x12xf32>, %[[ACC:[^:]+]]: tensor<1xf32>)
// CHECK:       %[[R:.+]] = linalg.generic {indexing_maps = [affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (0, d0)>, affine_map<(d0) -> (0)>], iterator_types = ["reduction"]}
// CHECK-SAME:  ins(%[[X]], %[[Y]] : tensor<1x12xf32>, tensor<1x12xf32>) outs(%[[ACC]] : tensor<1xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32, %[[O:[^:]+]]: f32):
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[M]], %[[O]] : f32
// CHECK-NEXT:    linalg.yield %[[S]] : f32
// CHECK:       return %[[R]]

#id = affine_map<(i, j) -> (i, j)>
#bc = affine_map<(r) -> (0, r)>
#acc = affine_map<(r) -> (0)>
func.func @reduction_consumer(%x: tensor<1x12xf32>, %y: tensor<1x12xf32>, %acc: tensor<1xf32>) -> tensor<1xf32> {
  %init = tensor.empty() : tensor<1x12xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x, %y : tensor<1x12xf32>, tensor<1x12xf32>) outs(%init : tensor<1x12xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<1x12xf32>
  %1 = linalg.generic {indexing_maps = [#bc, #acc], iterator_types = ["reduction"]}
      ins(%0 : tensor<1x12xf32>) outs(%acc : tensor<1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<1xf32>
  return %1 : tensor<1xf32>
}

// -----

// A producer that reads its init keeps its result (and init) in the fused op.

// CHECK-LABEL: func.func @producer_reads_its_init
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<2x4xf64>, %[[Y:[^:]+]]: tensor<2x4xi32>)
// CHECK-NEXT:  %[[R:.+]]:2 = linalg.generic
// CHECK-SAME:  outs(%[[X]], %[[Y]] : tensor<2x4xf64>, tensor<2x4xi32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f64, %[[B:[^:]+]]: i32):
// CHECK-NEXT:    %[[F:.+]] = func.call @first(%[[A]]) : (f64) -> f64
// CHECK-NEXT:    %[[G:.+]] = func.call @second(%[[F]], %[[B]]) : (f64, i32) -> i32
// CHECK-NEXT:    linalg.yield %[[F]], %[[G]] : f64, i32
// CHECK-NEXT:  } -> (tensor<2x4xf64>, tensor<2x4xi32>)
// CHECK-NEXT:  return %[[R]]#1 : tensor<2x4xi32>

func.func private @first(%a: f64) -> f64
func.func private @second(%a: f64, %b: i32) -> i32

func.func @producer_reads_its_init(%x: tensor<2x4xf64>, %y: tensor<2x4xi32>) -> tensor<2x4xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      outs(%x : tensor<2x4xf64>) {
  ^bb0(%a: f64):
    %r = func.call @first(%a) : (f64) -> f64
    linalg.yield %r : f64
  } -> tensor<2x4xf64>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<2x4xf64>) outs(%y : tensor<2x4xi32>) {
  ^bb0(%a: f64, %b: i32):
    %r = func.call @second(%a, %b) : (f64, i32) -> i32
    linalg.yield %r : i32
  } -> tensor<2x4xi32>
  return %1 : tensor<2x4xi32>
}

// -----

// A splat constant stays an input when its map is needed for the loop
// bounds (here, the reduction's).

// CHECK-LABEL: func.func @no_constant_fold_into_reduction
// CHECK:       %[[CST:.+]] = arith.constant dense<4.000000e+00> : tensor<3x2xf32>
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%[[CST]] : tensor<3x2xf32>)

func.func @no_constant_fold_into_reduction() -> tensor<3xf32> {
  %cst = arith.constant dense<4.0> : tensor<3x2xf32>
  %init = tensor.empty() : tensor<3xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i, r) -> (i, r)>, affine_map<(i, r) -> (i)>], iterator_types = ["parallel", "reduction"]}
      ins(%cst : tensor<3x2xf32>) outs(%init : tensor<3xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<3xf32>
  return %0 : tensor<3xf32>
}

// -----

// Inits the payload does not read become tensor.empty of their shape.

// CHECK-LABEL: func.func @init_not_read_becomes_empty
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<?x?xf32>)
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[D0:.+]] = tensor.dim %[[X]], %[[C0]]
// CHECK-DAG:   %[[D1:.+]] = tensor.dim %[[X]], %[[C1]]
// CHECK:       %[[E:.+]] = tensor.empty(%[[D0]], %[[D1]]) : tensor<?x?xf32>
// CHECK:       %[[G:.+]] = linalg.generic
// CHECK-SAME:  outs(%[[E]] : tensor<?x?xf32>)
// CHECK-DAG:   %[[G0:.+]] = tensor.dim %[[G]], %[[C0]]
// CHECK-DAG:   %[[G1:.+]] = tensor.dim %[[G]], %[[C1]]
// CHECK:       %[[E2:.+]] = tensor.empty(%[[G0]], %[[G1]]) : tensor<?x?xf32>
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%[[G]] : tensor<?x?xf32>) outs(%[[E2]] : tensor<?x?xf32>)

#id = affine_map<(i, j) -> (i, j)>
func.func @init_not_read_becomes_empty(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<?x?xf32>) outs(%x : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.mulf %a, %a : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<?x?xf32>) outs(%0 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %1 : tensor<?x?xf32>
}

// -----

// Fusing the broadcast would leave the reduction without an operand giving
// its loop's size: both generics stay (the fill too, as an init).

// CHECK-LABEL: func.func @broadcast_into_reduction_left_alone
// CHECK:       linalg.generic
// CHECK:       linalg.fill
// CHECK:       linalg.generic

#none = affine_map<(i, j) -> ()>
#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
#row = affine_map<(i, j) -> (i)>
func.func @broadcast_into_reduction_left_alone(%x: tensor<f32>, %n: index) -> tensor<?xf32> {
  %ninf = arith.constant 0xFF800000 : f32
  %e2 = tensor.empty(%n, %n) : tensor<?x?xf32>
  %0 = linalg.generic {indexing_maps = [#none, #id], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<f32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  } -> tensor<?x?xf32>
  %e1 = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%ninf : f32) outs(%e1 : tensor<?xf32>) -> tensor<?xf32>
  %1 = linalg.generic {indexing_maps = [#tr, #row], iterator_types = ["parallel", "reduction"]}
      ins(%0 : tensor<?x?xf32>) outs(%f : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.maximumf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %1 : tensor<?xf32>
}

// -----

// The consumer's first loop is only sized by the producer's init, so the
// producer's result stays in the fused op.

// CHECK-LABEL: func.func @producer_kept_for_bounds
// CHECK-SAME:  (%{{.+}}: tensor<100xi64>, %[[TABLE:[^:]+]]: tensor<100xi32>)
// CHECK-DAG:   %[[E0:.+]] = tensor.empty() : tensor<100xi64>
// CHECK-DAG:   %[[E1:.+]] = tensor.empty() : tensor<100xi32>
// CHECK:       %[[R:.+]]:2 = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d1)>], iterator_types = ["parallel", "parallel"]}
// CHECK-SAME:  outs(%[[E0]], %[[E1]] : tensor<100xi64>, tensor<100xi32>)
// CHECK:         %[[I:.+]] = linalg.index 0 : index
// CHECK-NEXT:    %[[W:.+]] = arith.index_cast %[[I]] : index to i64
// CHECK-NEXT:    %[[N:.+]] = arith.index_cast %[[W]] : i64 to index
// CHECK-NEXT:    %[[V:.+]] = tensor.extract %[[TABLE]][%[[N]]]
// CHECK-NEXT:    linalg.yield %[[W]], %[[V]] : i64, i32
// CHECK:       return %[[R]]#1

func.func @producer_kept_for_bounds(%x: tensor<100xi64>, %table: tensor<100xi32>) -> tensor<100xi32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      outs(%x : tensor<100xi64>) {
  ^bb0(%o: i64):
    %i = linalg.index 0 : index
    %v = arith.index_cast %i : index to i64
    linalg.yield %v : i64
  } -> tensor<100xi64>
  %e = tensor.empty() : tensor<100xi32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i)>, affine_map<(i, j) -> (j)>], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<100xi64>) outs(%e : tensor<100xi32>) {
  ^bb0(%a: i64, %o: i32):
    %i = arith.index_cast %a : i64 to index
    %v = tensor.extract %table[%i] : tensor<100xi32>
    linalg.yield %v : i32
  } -> tensor<100xi32>
  return %1 : tensor<100xi32>
}

// -----

// An input produced by linalg.fill is read as the fill's scalar.

// CHECK-LABEL: func.func @fill_read_as_scalar
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<?xf32>)
// CHECK-DAG:   %[[THREE:.+]] = arith.constant 3.000000e+00 : f32
// CHECK-NOT:   linalg.fill
// CHECK:       linalg.generic
// CHECK-SAME:  ins(%[[X]] : tensor<?xf32>)
// CHECK:         math.powf %{{.+}}, %[[THREE]] : f32

func.func @fill_read_as_scalar(%x: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %three = arith.constant 3.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%three : f32) outs(%e : tensor<?xf32>) -> tensor<?xf32>
  %e2 = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%x, %f : tensor<?xf32>, tensor<?xf32>) outs(%e2 : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = math.powf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %0 : tensor<?xf32>
}

// -----

// Fills read through any map fold; with no input left, only the init remains.

// CHECK-LABEL: func.func @two_fills_any_access
// CHECK-NOT:   linalg.fill
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]} outs(

#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>
func.func @two_fills_any_access(%x: tensor<?x?xf32>) -> tensor<?x?xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %p = arith.constant 2.0 : f32
  %q = arith.constant 8.0 : f32
  %n = tensor.dim %x, %c0 : tensor<?x?xf32>
  %m = tensor.dim %x, %c1 : tensor<?x?xf32>
  %e0 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %f0 = linalg.fill ins(%p : f32) outs(%e0 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e1 = tensor.empty(%m, %n) : tensor<?x?xf32>
  %f1 = linalg.fill ins(%q : f32) outs(%e1 : tensor<?x?xf32>) -> tensor<?x?xf32>
  %e2 = tensor.empty(%n, %m) : tensor<?x?xf32>
  %0 = linalg.generic {indexing_maps = [#id, #tr, #id], iterator_types = ["parallel", "parallel"]}
      ins(%f0, %f1 : tensor<?x?xf32>, tensor<?x?xf32>) outs(%e2 : tensor<?x?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.subf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?x?xf32>
  return %0 : tensor<?x?xf32>
}

// -----

// One result of a two-result producer fuses; the duplicate input goes and
// the producer's unused result with it.

// CHECK-LABEL: func.func @two_result_producer
// CHECK-SAME:  (%[[A:[^:]+]]: tensor<f32>, %[[B:[^:]+]]: tensor<f32>, %{{.+}}: tensor<f32>)
// CHECK:       %[[E:.+]] = tensor.empty() : tensor<f32>
// CHECK:       %[[R:.+]] = linalg.generic
// CHECK-SAME:  ins(%[[A]], %[[B]] : tensor<f32>, tensor<f32>) outs(%[[E]] : tensor<f32>)
// CHECK-NEXT:  ^{{.*}}(%[[X:[^:]+]]: f32, %[[Y:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[T0:.+]] = arith.mulf %[[X]], %[[Y]] : f32
// CHECK-NEXT:    %[[T1:.+]] = arith.addf %[[T0]], %[[Y]] : f32
// CHECK-NEXT:    %[[T2:.+]] = arith.addf %[[T1]], %[[Y]] : f32
// CHECK-NEXT:    %[[T3:.+]] = arith.mulf %[[T2]], %[[Y]] : f32
// CHECK-NEXT:    linalg.yield %[[T3]] : f32
// CHECK:       return %[[R]]

#s = affine_map<() -> ()>
func.func @two_result_producer(%a: tensor<f32>, %b: tensor<f32>, %out: tensor<f32>) -> tensor<f32> {
  %e0 = tensor.empty() : tensor<f32>
  %e1 = tensor.empty() : tensor<f32>
  %0:2 = linalg.generic {indexing_maps = [#s, #s, #s, #s, #s], iterator_types = []}
      ins(%a, %b, %b : tensor<f32>, tensor<f32>, tensor<f32>) outs(%e0, %e1 : tensor<f32>, tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %z: f32, %o0: f32, %o1: f32):
    %s = arith.mulf %x, %y : f32
    %t = arith.addf %s, %z : f32
    linalg.yield %s, %t : f32, f32
  } -> (tensor<f32>, tensor<f32>)
  %1 = linalg.generic {indexing_maps = [#s, #s, #s], iterator_types = []}
      ins(%0#1, %b : tensor<f32>, tensor<f32>) outs(%out : tensor<f32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %t = arith.mulf %s, %y : f32
    linalg.yield %t : f32
  } -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// A producer with a reduction loop does not fuse.

// CHECK-LABEL: func.func @reduction_producer_left_alone
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel", "reduction"]
// CHECK:       linalg.generic {{.*}} iterator_types = ["parallel"]
// CHECK:         math.sqrt

#id = affine_map<(i, j) -> (i, j)>
#row = affine_map<(i, j) -> (i)>
func.func @reduction_producer_left_alone(%x: tensor<4x5xf32>, %acc: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [#id, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : tensor<4x5xf32>) outs(%acc : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  %e = tensor.empty() : tensor<4xf32>
  %1 = linalg.generic {indexing_maps = [affine_map<(i) -> (i)>, affine_map<(i) -> (i)>], iterator_types = ["parallel"]}
      ins(%0 : tensor<4xf32>) outs(%e : tensor<4xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.sqrt %a : f32
    linalg.yield %r : f32
  } -> tensor<4xf32>
  return %1 : tensor<4xf32>
}

// -----

// Nor one whose result map is not a permutation of its loops.

// CHECK-LABEL: func.func @non_permutation_result_map_left_alone
// CHECK:       linalg.generic
// CHECK:         arith.negf
// CHECK:       linalg.generic
// CHECK:         math.absf

#id = affine_map<(i, j) -> (i, j)>
func.func @non_permutation_result_map_left_alone(%x: tensor<4x5xf32>) -> tensor<4x1xf32> {
  %e = tensor.empty() : tensor<4x1xf32>
  %0 = linalg.generic {indexing_maps = [#id, affine_map<(i, j) -> (i, 0)>], iterator_types = ["parallel", "parallel"]}
      ins(%x : tensor<4x5xf32>) outs(%e : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  %e2 = tensor.empty() : tensor<4x1xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
      ins(%0 : tensor<4x1xf32>) outs(%e2 : tensor<4x1xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.absf %a : f32
    linalg.yield %r : f32
  } -> tensor<4x1xf32>
  return %1 : tensor<4x1xf32>
}

// -----

// A producer feeding the consumer's init (which the consumer reads) does not
// fuse: only producers of inputs do.

// CHECK-LABEL: func.func @producer_feeds_init_left_alone
// CHECK:       %[[P:.+]] = linalg.generic
// CHECK:         math.exp
// CHECK:       linalg.generic
// CHECK-SAME:  outs(%[[P]] : tensor<8xf32>)

#id = affine_map<(i) -> (i)>
func.func @producer_feeds_init_left_alone(%x: tensor<8xf32>, %y: tensor<8xf32>) -> tensor<8xf32> {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%y : tensor<8xf32>) outs(%0 : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.addf %a, %o : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %1 : tensor<8xf32>
}

// -----

// A producer with another user is not fused (the pass fuses single-use
// producers only).

// CHECK-LABEL: func.func @multi_use_producer_left_alone
// CHECK:       %[[P:.+]] = linalg.generic
// CHECK:         math.exp
// CHECK:       %[[C:.+]] = linalg.generic
// CHECK-SAME:  ins(%[[P]] : tensor<8xf32>)
// CHECK:         math.log
// CHECK:       return %[[P]], %[[C]]

#id = affine_map<(i) -> (i)>
func.func @multi_use_producer_left_alone(%x: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %e = tensor.empty() : tensor<8xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%x : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<8xf32>) outs(%e : tensor<8xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.log %a : f32
    linalg.yield %r : f32
  } -> tensor<8xf32>
  return %0, %1 : tensor<8xf32>, tensor<8xf32>
}

// -----

// A chain fuses to a fixed point: one loop nest.

// CHECK-LABEL: func.func @chain_of_four
// CHECK-SAME:  (%[[X:[^:]+]]: tensor<?xf32>, %[[Y:[^:]+]]: tensor<?xf32>)
// CHECK:       linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]
// CHECK-SAME:  ins(%[[X]], %[[Y]] : tensor<?xf32>, tensor<?xf32>)
// CHECK-NEXT:  ^{{.*}}(%[[A:[^:]+]]: f32, %[[B:[^:]+]]: f32, %{{.+}}: f32):
// CHECK-NEXT:    %[[M:.+]] = arith.mulf %[[A]], %[[B]] : f32
// CHECK-NEXT:    %[[E:.+]] = math.exp %[[M]] : f32
// CHECK-NEXT:    %[[S:.+]] = arith.addf %[[E]], %[[A]] : f32
// CHECK-NEXT:    %[[N:.+]] = arith.negf %[[S]] : f32
// CHECK-NEXT:    linalg.yield %[[N]] : f32
// CHECK-NOT:   linalg.generic

#id = affine_map<(i) -> (i)>
func.func @chain_of_four(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %c0 = arith.constant 0 : index
  %n = tensor.dim %x, %c0 : tensor<?xf32>
  %e = tensor.empty(%n) : tensor<?xf32>
  %0 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%x, %y : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.mulf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %1 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%0 : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = math.exp %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %2 = linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = ["parallel"]}
      ins(%1, %x : tensor<?xf32>, tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %r = arith.addf %a, %b : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  %3 = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%2 : tensor<?xf32>) outs(%e : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  } -> tensor<?xf32>
  return %3 : tensor<?xf32>
}
