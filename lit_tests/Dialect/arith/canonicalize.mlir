// canonicalize on arith.cmpi, arith.select, arith.extui and arith.extsi:
// upstream's folders (constants, equal operands, i1 identities, a constant
// moved to the right) and its patterns (redundant selects, select to extui or
// xori, comparisons of extensions, extensions of extensions); what they do
// not cover is left alone. tests/test_math_folding.py checks each chunk
// against upstream.
// RUN: mlkit-opt %s -canonicalize="test-convergence" --split-input-file | filecheck %s

// CHECK-LABEL: func.func @cmpi_same_operands
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[F:.*]] = arith.constant dense<false> : vector<2xi1>
// CHECK-NEXT:    return %[[T]], %[[F]]
func.func @cmpi_same_operands(%a: i32, %v: vector<2xi8>) -> (i1, vector<2xi1>) {
  %0 = arith.cmpi uge, %a, %a : i32
  %1 = arith.cmpi slt, %v, %v : vector<2xi8>
  return %0, %1 : i1, vector<2xi1>
}

// CHECK-LABEL: func.func @cmpi_constants
// CHECK-NEXT:    %[[S:.*]] = arith.constant true
// CHECK-NEXT:    %[[U:.*]] = arith.constant false
// CHECK-NEXT:    %[[V:.*]] = arith.constant dense<[true, true, false]> : vector<3xi1>
// CHECK-NEXT:    return %[[S]], %[[U]], %[[V]]
func.func @cmpi_constants() -> (i1, i1, vector<3xi1>) {
  %m1 = arith.constant -1 : i8
  %one = arith.constant 1 : i8
  %a = arith.constant dense<[-4, 2, 7]> : vector<3xi16>
  %b = arith.constant dense<[3, 2, -7]> : vector<3xi16>
  %0 = arith.cmpi slt, %m1, %one : i8
  %1 = arith.cmpi ult, %m1, %one : i8
  %2 = arith.cmpi sle, %a, %b : vector<3xi16>
  return %0, %1, %2 : i1, i1, vector<3xi1>
}

// CHECK-LABEL: func.func @cmpi_i1_identities
// CHECK-SAME:    (%[[X:.*]]: i1, %[[V:.*]]: vector<2xi1>)
// CHECK-NEXT:    return %[[X]], %[[X]], %[[V]]
func.func @cmpi_i1_identities(%x: i1, %v: vector<2xi1>) -> (i1, i1, vector<2xi1>) {
  %true = arith.constant true
  %false = arith.constant false
  %zeros = arith.constant dense<false> : vector<2xi1>
  %0 = arith.cmpi eq, %x, %true : i1
  %1 = arith.cmpi ne, %x, %false : i1
  %2 = arith.cmpi ne, %v, %zeros : vector<2xi1>
  return %0, %1, %2 : i1, i1, vector<2xi1>
}

// CHECK-LABEL: func.func @cmpi_i1_eq_false
// CHECK:         arith.cmpi eq
func.func @cmpi_i1_eq_false(%x: i1) -> i1 {
  %false = arith.constant false
  %0 = arith.cmpi eq, %x, %false : i1
  return %0 : i1
}

// -----

// A constant on the left moves to the right, the predicate mirrored.
// CHECK-LABEL: func.func @cmpi_constant_to_right
// CHECK-SAME:    (%[[X:.*]]: i64, %[[V:.*]]: vector<2xi32>)
// CHECK-DAG:     %[[C:.*]] = arith.constant 7 : i64
// CHECK-DAG:     %[[D:.*]] = arith.constant dense<[1, 2]> : vector<2xi32>
// CHECK-DAG:     %[[R0:.*]] = arith.cmpi sgt, %[[X]], %[[C]] : i64
// CHECK-DAG:     %[[R1:.*]] = arith.cmpi ule, %[[X]], %[[C]] : i64
// CHECK-DAG:     %[[R2:.*]] = arith.cmpi ne, %[[V]], %[[D]] : vector<2xi32>
// CHECK:         return %[[R0]], %[[R1]], %[[R2]]
func.func @cmpi_constant_to_right(%x: i64, %v: vector<2xi32>) -> (i1, i1, vector<2xi1>) {
  %c = arith.constant 7 : i64
  %d = arith.constant dense<[1, 2]> : vector<2xi32>
  %0 = arith.cmpi slt, %c, %x : i64
  %1 = arith.cmpi uge, %c, %x : i64
  %2 = arith.cmpi ne, %d, %v : vector<2xi32>
  return %0, %1, %2 : i1, i1, vector<2xi1>
}

// -----

// ext(%x : i1) != 0 is %x, for scalars and vectors (upstream leaves tensors).
// CHECK-LABEL: func.func @cmpi_ext_ne_zero
// CHECK-SAME:    (%[[X:.*]]: i1, %[[V:.*]]: vector<4xi1>, %[[T:.*]]: tensor<4xi1>)
// CHECK:         %[[TE:.*]] = arith.extui %[[T]]
// CHECK:         %[[TC:.*]] = arith.cmpi ne, %[[TE]]
// CHECK-NEXT:    return %[[X]], %[[V]], %[[TC]]
func.func @cmpi_ext_ne_zero(%x: i1, %v: vector<4xi1>, %t: tensor<4xi1>) -> (i1, vector<4xi1>, tensor<4xi1>) {
  %e = arith.extsi %x : i1 to i64
  %c0 = arith.constant 0 : i64
  %0 = arith.cmpi ne, %e, %c0 : i64
  %ev = arith.extui %v : vector<4xi1> to vector<4xi64>
  %z = arith.constant dense<0> : vector<4xi64>
  %1 = arith.cmpi ne, %ev, %z : vector<4xi64>
  %et = arith.extui %t : tensor<4xi1> to tensor<4xi64>
  %zt = arith.constant dense<0> : tensor<4xi64>
  %2 = arith.cmpi ne, %et, %zt : tensor<4xi64>
  return %0, %1, %2 : i1, vector<4xi1>, tensor<4xi1>
}

// eq/ne of two like extensions compares their sources; other predicates and
// mixed extensions stay.
// CHECK-LABEL: func.func @cmpi_of_extensions
// CHECK-SAME:    (%[[A:.*]]: i8, %[[B:.*]]: i8)
// CHECK-DAG:     %[[EQ:.*]] = arith.cmpi eq, %[[A]], %[[B]] : i8
// CHECK-DAG:     %[[SLT:.*]] = arith.cmpi slt, %{{.*}}, %{{.*}} : i32
// CHECK-DAG:     %[[MIX:.*]] = arith.cmpi ne, %{{.*}}, %{{.*}} : i32
// CHECK:         return %[[EQ]], %[[SLT]], %[[MIX]]
func.func @cmpi_of_extensions(%a: i8, %b: i8) -> (i1, i1, i1) {
  %ua = arith.extui %a : i8 to i32
  %ub = arith.extui %b : i8 to i32
  %sb = arith.extsi %b : i8 to i32
  %0 = arith.cmpi eq, %ua, %ub : i32
  %1 = arith.cmpi slt, %ua, %ub : i32
  %2 = arith.cmpi ne, %ua, %sb : i32
  return %0, %1, %2 : i1, i1, i1
}

// -----

// CHECK-LABEL: func.func @select_cmpi_branches
// CHECK-SAME:    (%[[A:.*]]: i64, %[[B:.*]]: i64)
// CHECK-NEXT:    return %[[B]], %[[A]], %[[A]]
func.func @select_cmpi_branches(%a: i64, %b: i64) -> (i64, i64, i64) {
  %eq = arith.cmpi eq, %a, %b : i64
  %0 = arith.select %eq, %a, %b : i64
  %ne = arith.cmpi ne, %b, %a : i64
  %1 = arith.select %ne, %a, %b : i64
  %eq2 = arith.cmpi eq, %b, %a : i64
  %2 = arith.select %eq2, %b, %a : i64
  return %0, %1, %2 : i64, i64, i64
}

// A select of an ordering comparison's operands is a min or max.
// CHECK-LABEL: func.func @select_cmpi_min_max
// CHECK-SAME:    (%[[A:.*]]: i64, %[[B:.*]]: i64, %[[V:.*]]: vector<2xi8>, %[[W:.*]]: vector<2xi8>)
// CHECK-DAG:     %[[MIN:.*]] = arith.minsi %[[A]], %[[B]] : i64
// CHECK-DAG:     %[[MAX:.*]] = arith.maxui %[[V]], %[[W]] : vector<2xi8>
// CHECK-DAG:     %[[SWAP:.*]] = arith.maxsi %[[A]], %[[B]] : i64
// CHECK:         return %[[MIN]], %[[MAX]], %[[SWAP]]
func.func @select_cmpi_min_max(%a: i64, %b: i64, %v: vector<2xi8>, %w: vector<2xi8>) -> (i64, vector<2xi8>, i64) {
  %lt = arith.cmpi sle, %a, %b : i64
  %0 = arith.select %lt, %a, %b : i64
  %gt = arith.cmpi ugt, %v, %w : vector<2xi8>
  %1 = arith.select %gt, %v, %w : vector<2xi1>, vector<2xi8>
  %2 = arith.select %lt, %b, %a : i64
  return %0, %1, %2 : i64, vector<2xi8>, i64
}

// CHECK-LABEL: func.func @select_cmpi_other_operands
// CHECK:         arith.select
func.func @select_cmpi_other_operands(%a: i64, %b: i64, %c: i64) -> i64 {
  %lt = arith.cmpi slt, %a, %b : i64
  %0 = arith.select %lt, %a, %c : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @select_constants
// CHECK-SAME:    (%[[C:.*]]: i1, %[[A:.*]]: vector<2xf32>, %[[B:.*]]: vector<2xf32>)
// CHECK-NEXT:    %[[R:.*]] = arith.constant dense<[1.000000e+00, 4.000000e+00]> : vector<2xf32>
// CHECK-NEXT:    return %[[C]], %[[R]], %[[A]]
func.func @select_constants(%c: i1, %a: vector<2xf32>, %b: vector<2xf32>) -> (i1, vector<2xf32>, vector<2xf32>) {
  %true = arith.constant true
  %false = arith.constant false
  %0 = arith.select %c, %true, %false : i1
  %cv = arith.constant dense<[true, false]> : vector<2xi1>
  %x = arith.constant dense<[1.0, 2.0]> : vector<2xf32>
  %y = arith.constant dense<[3.0, 4.0]> : vector<2xf32>
  %1 = arith.select %cv, %x, %y : vector<2xi1>, vector<2xf32>
  %all = arith.constant dense<true> : vector<2xi1>
  %2 = arith.select %all, %a, %b : vector<2xi1>, vector<2xf32>
  return %0, %1, %2 : i1, vector<2xf32>, vector<2xf32>
}

// -----

// CHECK-LABEL: func.func @select_to_extui
// CHECK-SAME:    (%[[C:.*]]: i1)
// CHECK-NEXT:    %[[R:.*]] = arith.extui %[[C]] : i1 to i64
// CHECK-NEXT:    return %[[R]]
func.func @select_to_extui(%c: i1) -> i64 {
  %c0 = arith.constant 0 : i64
  %c1 = arith.constant 1 : i64
  %0 = arith.select %c, %c1, %c0 : i64
  return %0 : i64
}

// CHECK-LABEL: func.func @select_to_extui_of_not
// CHECK-SAME:    (%[[C:.*]]: i1)
// CHECK-DAG:     %[[T:.*]] = arith.constant true
// CHECK-DAG:     %[[N:.*]] = arith.xori %[[C]], %[[T]] : i1
// CHECK-DAG:     %[[R:.*]] = arith.extui %[[N]] : i1 to i16
// CHECK:         return %[[R]]
func.func @select_to_extui_of_not(%c: i1) -> i16 {
  %c0 = arith.constant 0 : i16
  %c1 = arith.constant 1 : i16
  %0 = arith.select %c, %c0, %c1 : i16
  return %0 : i16
}

// A vector select of 1 and 0 is no extui upstream.
// CHECK-LABEL: func.func @select_vector_one_zero
// CHECK:         arith.select
func.func @select_vector_one_zero(%c: vector<2xi1>) -> vector<2xi32> {
  %c0 = arith.constant dense<0> : vector<2xi32>
  %c1 = arith.constant dense<1> : vector<2xi32>
  %0 = arith.select %c, %c1, %c0 : vector<2xi1>, vector<2xi32>
  return %0 : vector<2xi32>
}

// CHECK-LABEL: func.func @select_i1_to_not
// CHECK-SAME:    (%[[C:.*]]: i1)
// CHECK-NEXT:    %[[T:.*]] = arith.constant true
// CHECK-NEXT:    %[[R:.*]] = arith.xori %[[C]], %[[T]] : i1
// CHECK-NEXT:    return %[[R]]
func.func @select_i1_to_not(%c: i1) -> i1 {
  %true = arith.constant true
  %false = arith.constant false
  %0 = arith.select %c, %false, %true : i1
  return %0 : i1
}

// -----

// CHECK-LABEL: func.func @redundant_selects
// CHECK-SAME:    (%[[P:.*]]: i1, %[[A:.*]]: i32, %[[B:.*]]: i32, %[[C:.*]]: i32)
// CHECK-DAG:     %[[T:.*]] = arith.select %[[P]], %[[A]], %[[C]] : i32
// CHECK-DAG:     %[[F:.*]] = arith.select %[[P]], %[[B]], %[[C]] : i32
// CHECK:         return %[[T]], %[[F]]
func.func @redundant_selects(%p: i1, %a: i32, %b: i32, %c: i32) -> (i32, i32) {
  %0 = arith.select %p, %a, %b : i32
  %1 = arith.select %p, %0, %c : i32
  %2 = arith.select %p, %a, %c : i32
  %3 = arith.select %p, %b, %2 : i32
  return %1, %3 : i32, i32
}

// select(not p, a, b) is select(p, b, a).
// CHECK-LABEL: func.func @select_not_condition
// CHECK-SAME:    (%[[P:.*]]: i1, %[[A:.*]]: f32, %[[B:.*]]: f32)
// CHECK-NEXT:    %[[R:.*]] = arith.select %[[P]], %[[B]], %[[A]] : f32
// CHECK-NEXT:    return %[[R]]
func.func @select_not_condition(%p: i1, %a: f32, %b: f32) -> f32 {
  %true = arith.constant true
  %n = arith.xori %p, %true : i1
  %0 = arith.select %n, %a, %b : f32
  return %0 : f32
}

// A different condition is not redundant.
// CHECK-LABEL: func.func @select_other_condition
// CHECK:         arith.select
// CHECK-NEXT:    arith.select
func.func @select_other_condition(%p: i1, %q: i1, %a: i32, %b: i32, %c: i32) -> i32 {
  %0 = arith.select %q, %a, %b : i32
  %1 = arith.select %p, %0, %c : i32
  return %1 : i32
}

// -----

// CHECK-LABEL: func.func @ext_of_ext
// CHECK-SAME:    (%[[X:.*]]: i3)
// CHECK-NEXT:    %[[S:.*]] = arith.extsi %[[X]] : i3 to i64
// CHECK-NEXT:    %[[U:.*]] = arith.extui %[[X]] : i3 to i64
// CHECK-NEXT:    %[[SU:.*]] = arith.extui %[[X]] : i3 to i32
// CHECK-NEXT:    return %[[S]], %[[U]], %[[SU]]
func.func @ext_of_ext(%x: i3) -> (i64, i64, i32) {
  %0 = arith.extsi %x : i3 to i8
  %1 = arith.extsi %0 : i8 to i64
  %2 = arith.extui %x : i3 to i16
  %3 = arith.extui %2 : i16 to i64
  %4 = arith.extsi %2 : i16 to i32
  return %1, %3, %4 : i64, i64, i32
}

// extui of extsi is no zero extension of the source.
// CHECK-LABEL: func.func @extui_of_extsi
// CHECK:         arith.extsi
// CHECK-NEXT:    arith.extui
func.func @extui_of_extsi(%x: i3) -> i64 {
  %0 = arith.extsi %x : i3 to i8
  %1 = arith.extui %0 : i8 to i64
  return %1 : i64
}

// CHECK-LABEL: func.func @ext_constants
// CHECK-NEXT:    %[[S:.*]] = arith.constant -3 : i64
// CHECK-NEXT:    %[[U:.*]] = arith.constant dense<[255, 2]> : vector<2xi16>
// CHECK-NEXT:    %[[B:.*]] = arith.constant -1 : i16
// CHECK-NEXT:    return %[[S]], %[[U]], %[[B]]
func.func @ext_constants() -> (i64, vector<2xi16>, i16) {
  %c = arith.constant -3 : i8
  %0 = arith.extsi %c : i8 to i64
  %d = arith.constant dense<[-1, 2]> : vector<2xi8>
  %1 = arith.extui %d : vector<2xi8> to vector<2xi16>
  %t = arith.constant true
  %2 = arith.extsi %t : i1 to i16
  return %0, %1, %2 : i64, vector<2xi16>, i16
}

// -----

// A constant on the left of a commutative integer op moves to the right in
// place, keeping the op's overflow flags; a non-commutative op keeps its order.

// CHECK-LABEL: func.func @commutative_constant_to_the_right(
// CHECK-SAME:      %[[A:.*]]: i32)
// CHECK:         %[[C:.*]] = arith.constant 42 : i32
// CHECK:         %[[M:.*]] = arith.muli %[[A]], %[[C]] overflow<nsw> : i32
// CHECK:         %[[S:.*]] = arith.addi %[[A]], %[[C]] : i32
// CHECK:         %[[D:.*]] = arith.subi %[[C]], %[[M]] : i32
// CHECK:         return %[[S]], %[[D]] : i32, i32
func.func @commutative_constant_to_the_right(%a: i32) -> (i32, i32) {
  %c = arith.constant 42 : i32
  %m = arith.muli %c, %a overflow<nsw> : i32
  %s = arith.addi %c, %a : i32
  %d = arith.subi %c, %m : i32
  return %s, %d : i32, i32
}
