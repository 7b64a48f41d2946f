// RUN: mlkit-opt %s -split-input-file -lower-affine | filecheck %s

// Constant bounds: scf.for with index constants, affine.yield to scf.yield.
// CHECK-LABEL: func.func @simple_loop
// CHECK:      %[[LB:.*]] = arith.constant 1 : index
// CHECK-NEXT: %[[UB:.*]] = arith.constant 42 : index
// CHECK-NEXT: %[[STEP:.*]] = arith.constant 2 : index
// CHECK-NEXT: scf.for %{{.*}} = %[[LB]] to %[[UB]] step %[[STEP]] {
// CHECK-NOT:  affine.
func.func @simple_loop() {
  affine.for %i = 1 to 42 step 2 {
  }
  return
}

// -----

// Multi-result bounds: a linear max chain for the lower bound, min for the upper.
// CHECK-LABEL: func.func @min_max_bounds
// CHECK:      %[[L:.*]] = arith.maxsi %{{.*}}, %{{.*}} : index
// CHECK:      %[[U0:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[U:.*]] = arith.minsi %[[U0]], %{{.*}} : index
// CHECK:      scf.for %{{.*}} = %[[L]] to %[[U]] step
func.func @min_max_bounds(%a: index, %b: index) {
  affine.for %i = max affine_map<(d0)[s0] -> (d0, s0)>(%a)[%b] to min affine_map<(d0)[s0] -> (d0 + 10, s0, 64)>(%a)[%b] {
  }
  return
}

// -----

// Loop-carried values become scf.for iter_args.
// CHECK-LABEL: func.func @iter_args
// CHECK:       %[[R:.*]] = scf.for %{{.*}} = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %{{.*}}) -> (f32) {
// CHECK:         %[[S:.*]] = arith.addf %[[ACC]], %[[ACC]] : f32
// CHECK-NEXT:    scf.yield %[[S]] : f32
// CHECK:       return %[[R]]
func.func @iter_args(%x: f32) -> f32 {
  %r = affine.for %i = 0 to 4 iter_args(%acc = %x) -> (f32) {
    %s = arith.addf %acc, %acc : f32
    affine.yield %s : f32
  }
  return %r : f32
}

// -----

// Multiplication carries nsw; floordiv is upstream's single-divsi select form.
// CHECK-LABEL: func.func @apply
// CHECK-SAME:  (%[[A:.*]]: index)
// CHECK:      %[[C3:.*]] = arith.constant 3 : index
// CHECK-NEXT: %[[M:.*]] = arith.muli %[[A]], %[[C3]] overflow<nsw> : index
// CHECK-NEXT: %[[C4:.*]] = arith.constant 4 : index
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[NEG1:.*]] = arith.constant -1 : index
// CHECK-NEXT: %[[ISNEG:.*]] = arith.cmpi slt, %[[M]], %[[Z]] : index
// CHECK-NEXT: %[[ND:.*]] = arith.subi %[[NEG1]], %[[M]] : index
// CHECK-NEXT: %[[DVD:.*]] = arith.select %[[ISNEG]], %[[ND]], %[[M]] : index
// CHECK-NEXT: %[[Q:.*]] = arith.divsi %[[DVD]], %[[C4]] : index
// CHECK-NEXT: %[[CQ:.*]] = arith.subi %[[NEG1]], %[[Q]] : index
// CHECK-NEXT: %[[R:.*]] = arith.select %[[ISNEG]], %[[CQ]], %[[Q]] : index
// CHECK-NEXT: return %[[R]]
func.func @apply(%a: index) -> index {
  %0 = affine.apply affine_map<(d0) -> ((d0 * 3) floordiv 4)>(%a)
  return %0 : index
}

// -----

// mod: srem corrected by the divisor when negative.
// CHECK-LABEL: func.func @mod
// CHECK:      %[[C5:.*]] = arith.constant 5 : index
// CHECK-NEXT: %[[REM:.*]] = arith.remsi %{{.*}}, %[[C5]] : index
// CHECK-NEXT: %[[Z:.*]] = arith.constant 0 : index
// CHECK-NEXT: %[[NEG:.*]] = arith.cmpi slt, %[[REM]], %[[Z]] : index
// CHECK-NEXT: %[[ADD:.*]] = arith.addi %[[REM]], %[[C5]] : index
// CHECK-NEXT: arith.select %[[NEG]], %[[ADD]], %[[REM]] : index
func.func @mod(%a: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 mod 5)>(%a)
  return %0 : index
}

// -----

// ceildiv: the sle / subi / divsi / select sequence.
// CHECK-LABEL: func.func @ceildiv
// CHECK:      arith.cmpi sle
// CHECK:      arith.divsi
// CHECK:      arith.select
// CHECK-NOT:  arith.ceildivsi
func.func @ceildiv(%a: index) -> index {
  %0 = affine.apply affine_map<(d0) -> (d0 ceildiv 3)>(%a)
  return %0 : index
}

// -----

// affine.min / affine.max: linear chains of minsi / maxsi.
// CHECK-LABEL: func.func @min_max
// CHECK:      %[[M0:.*]] = arith.minsi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: arith.minsi %[[M0]], %{{.*}} : index
// CHECK:      arith.maxsi
func.func @min_max(%a: index, %b: index) -> (index, index) {
  %0 = affine.min affine_map<(d0, d1) -> (d0, d1, 100)>(%a, %b)
  %1 = affine.max affine_map<(d0)[s0] -> (d0 * 2, s0)>(%a)[%b]
  return %0, %1 : index, index
}

// -----

// affine.if: a non-short-circuit conjunction of sge/eq against zero.
// CHECK-LABEL: func.func @if_else
// CHECK:      %[[Z:.*]] = arith.constant 0 : index
// CHECK:      %[[C0:.*]] = arith.cmpi sge, %{{.*}}, %[[Z]] : index
// CHECK:      %[[C1:.*]] = arith.cmpi eq, %{{.*}}, %[[Z]] : index
// CHECK-NEXT: %[[C:.*]] = arith.andi %[[C0]], %[[C1]] : i1
// CHECK-NEXT: %{{.*}} = scf.if %[[C]] -> (index) {
// CHECK-NEXT:   scf.yield %{{.*}} : index
// CHECK-NEXT: } else {
// CHECK-NEXT:   scf.yield %{{.*}} : index
// CHECK-NEXT: }
func.func @if_else(%a: index, %b: index) -> index {
  %r = affine.if affine_set<(d0)[s0] : (d0 - 2 >= 0, d0 - s0 == 0)>(%a)[%b] -> index {
    affine.yield %a : index
  } else {
    affine.yield %b : index
  }
  return %r : index
}

// -----

// affine.if without else keeps a single region; nothing dead is removed.
// CHECK-LABEL: func.func @if_then
// CHECK:      scf.if %{{.*}} {
// CHECK-NEXT:   arith.addi
// CHECK-NEXT: }
// CHECK-NEXT: return
func.func @if_then(%a: index) {
  affine.if affine_set<(d0) : (d0 >= 0)>(%a) {
    %x = arith.addi %a, %a : index
  }
  return
}

// -----

// Memory accesses: indices are the expanded map results.
// CHECK-LABEL: func.func @access
// CHECK:      %[[I:.*]] = arith.addi %{{.*}}, %{{.*}} : index
// CHECK-NEXT: %[[V:.*]] = memref.load %{{.*}}[%[[I]], %{{.*}}] : memref<?x?xf32>
// CHECK-NEXT: memref.store %[[V]], %{{.*}}[%{{.*}}, %{{.*}}] : memref<?x?xf32>
// CHECK:      vector.load %{{.*}}[%{{.*}}] : memref<?xf32>, vector<4xf32>
// CHECK:      vector.store %{{.*}}, %{{.*}}[%{{.*}}] : memref<?xf32>, vector<4xf32>
func.func @access(%m: memref<?x?xf32>, %v: memref<?xf32>, %i: index, %j: index) {
  %x = affine.load %m[%i + 1, %j] : memref<?x?xf32>
  affine.store %x, %m[%j, %i] : memref<?x?xf32>
  %w = affine.vector_load %v[%i * 2] : memref<?xf32>, vector<4xf32>
  affine.vector_store %w, %v[%j] : memref<?xf32>, vector<4xf32>
  return
}

// -----

// affine.parallel: scf.parallel with identity inits and scf.reduce regions.
// CHECK-LABEL: func.func @parallel
// CHECK-DAG:  %[[ZERO:.*]] = arith.constant 0.000000e+00 : f32
// CHECK-DAG:  %[[NINF:.*]] = arith.constant 0xFF800000 : f32
// xDSL prints scf.parallel in generic form: lbs, ubs, steps, inits.
// CHECK:      "scf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]], %[[NINF]]) <{operandSegmentSizes = array<i32: 2, 2, 2, 2>}>
// CHECK:        scf.reduce(%{{.*}}, %{{.*}} : f32, f32) {
// CHECK-NEXT:   ^{{.*}}(%[[L:.*]]: f32, %[[R:.*]]: f32):
// CHECK-NEXT:     %[[S:.*]] = arith.addf %[[L]], %[[R]] : f32
// CHECK-NEXT:     scf.reduce.return %[[S]] : f32
// CHECK:          arith.maximumf
func.func @parallel(%m: memref<?x?xf32>, %n: index) -> (f32, f32) {
  %r:2 = affine.parallel (%i, %j) = (0, max(%n, 2)) to (min(%n, 10), 20) step (2, 3) reduce ("addf", "maximumf") -> (f32, f32) {
    %v = affine.load %m[%i, %j] : memref<?x?xf32>
    affine.yield %v, %v : f32, f32
  }
  return %r#0, %r#1 : f32, f32
}

// -----

// affine.parallel without results ends in an empty scf.reduce.
// CHECK-LABEL: func.func @parallel_no_results
// CHECK:      "scf.parallel"(%{{.*}}, %{{.*}}, %{{.*}}) <{operandSegmentSizes = array<i32: 1, 1, 1, 0>}>
// CHECK:        memref.store
// CHECK-NEXT:   scf.reduce
func.func @parallel_no_results(%m: memref<?xf32>, %n: index, %c: f32) {
  affine.parallel (%i) = (0) to (%n) {
    affine.store %c, %m[%i] : memref<?xf32>
  }
  return
}

// -----

// affine.delinearize_index: floordivsi for the outer index, select-corrected
// remainders for the others.
// CHECK-LABEL: func.func @delinearize
// CHECK-DAG:  %[[C8:.*]] = arith.constant 8 : index
// CHECK-DAG:  %[[C32:.*]] = arith.constant 32 : index
// CHECK:      %[[Q:.*]] = arith.floordivsi %{{.*}}, %[[C32]] : index
// CHECK:      arith.addi %{{.*}}, %[[C32]] overflow<nsw> : index
// CHECK:      arith.divsi %{{.*}}, %[[C8]] : index
// CHECK:      arith.remsi %{{.*}}, %[[C8]] : index
func.func @delinearize(%i: index, %n: index) -> (index, index, index) {
  %a:3 = affine.delinearize_index %i into (%n, 4, 8) : index, index, index
  return %a#0, %a#1, %a#2 : index, index, index
}

// -----

// affine.linearize_index: scaled indices summed with nsw.
// CHECK-LABEL: func.func @linearize
// CHECK:      %[[A:.*]] = arith.muli %{{.*}}, %{{.*}} overflow<nsw> : index
// CHECK-NEXT: %[[B:.*]] = arith.muli %{{.*}}, %{{.*}} overflow<nsw> : index
// CHECK-NEXT: %[[S:.*]] = arith.addi %[[A]], %[[B]] overflow<nsw> : index
// CHECK-NEXT: arith.addi %[[S]], %{{.*}} overflow<nsw> : index
func.func @linearize(%i: index, %j: index, %k: index, %n: index) -> index {
  %l = affine.linearize_index [%i, %j, %k] by (%n, 4, 8) : index
  return %l : index
}

// -----

// Non-affine ops are left alone.
// CHECK-LABEL: func.func @untouched
// CHECK-NEXT: memref.load
// CHECK-NEXT: return
func.func @untouched(%m: memref<4xi32>, %i: index) -> i32 {
  %v = memref.load %m[%i] : memref<4xi32>
  return %v : i32
}
