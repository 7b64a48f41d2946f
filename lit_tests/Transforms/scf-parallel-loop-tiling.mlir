// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -p 'builtin.module(func.func(scf-parallel-loop-tiling{parallel-loop-tile-sizes=1,4}))' | filecheck %s --check-prefixes=CHECK,MINMAX
// RUN: mlkit-opt --mlir-print-local-scope %s -split-input-file -p 'builtin.module(func.func(scf-parallel-loop-tiling{parallel-loop-tile-sizes=1,4 no-min-max-bounds=true}))' | filecheck %s --check-prefixes=CHECK,INB

// Dynamic bounds: the outer loop steps by step * tile, the inner loop covers
// one tile, clamped by affine.min (or guarded by scf.if with
// no-min-max-bounds), and the body sees inner + outer index.

func.func @parallel_loop(%lb0: index, %lb1: index, %ub0: index, %ub1: index, %s0: index, %s1: index, %B: memref<?x?xf32>, %C: memref<?x?xf32>) {
  scf.parallel (%i0, %i1) = (%lb0, %lb1) to (%ub0, %ub1) step (%s0, %s1) {
    %v = memref.load %B[%i0, %i1] : memref<?x?xf32>
    memref.store %v, %C[%i0, %i1] : memref<?x?xf32>
  }
  return
}

// CHECK-LABEL: func.func @parallel_loop(
// CHECK-SAME:      %[[LB0:.*]]: index, %[[LB1:.*]]: index, %[[UB0:.*]]: index, %[[UB1:.*]]: index, %[[S0:.*]]: index, %[[S1:.*]]: index, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>) {
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[T0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[STEP0:.*]] = arith.muli %[[S0]], %[[T0]] : index
// CHECK-NEXT:    %[[STEP1:.*]] = arith.muli %[[S1]], %[[T1]] : index
// CHECK-NEXT:    scf.parallel (%[[I0:.*]], %[[I1:.*]]) = (%[[LB0]], %[[LB1]]) to (%[[UB0]], %[[UB1]]) step (%[[STEP0]], %[[STEP1]]) {
// MINMAX-NEXT:     %[[N0:.*]] = affine.min affine_map<(d0, d1, d2) -> (d0, d1 - d2)>(%[[STEP0]], %[[UB0]], %[[I0]])
// MINMAX-NEXT:     %[[N1:.*]] = affine.min affine_map<(d0, d1, d2) -> (d0, d1 - d2)>(%[[STEP1]], %[[UB1]], %[[I1]])
// MINMAX-NEXT:     scf.parallel (%[[J0:.*]], %[[J1:.*]]) = (%[[C0]], %[[C0]]) to (%[[N0]], %[[N1]]) step (%[[S0]], %[[S1]]) {
// INB-NEXT:        scf.parallel (%[[J0:.*]], %[[J1:.*]]) = (%[[C0]], %[[C0]]) to (%[[STEP0]], %[[STEP1]]) step (%[[S0]], %[[S1]]) {
// CHECK-NEXT:        %[[X0:.*]] = arith.addi %[[J0]], %[[I0]] : index
// CHECK-NEXT:        %[[X1:.*]] = arith.addi %[[J1]], %[[I1]] : index
// INB-NEXT:          %[[TRUE:.*]] = arith.constant true
// INB-NEXT:          %[[M0:.*]] = arith.muli %[[J0]], %[[S0]] : index
// INB-NEXT:          %[[A0:.*]] = arith.addi %[[M0]], %[[I0]] : index
// INB-NEXT:          %[[IN0:.*]] = arith.cmpi ult, %[[A0]], %[[UB0]] : index
// INB-NEXT:          %[[AND0:.*]] = arith.andi %[[TRUE]], %[[IN0]] : i1
// INB-NEXT:          %[[M1:.*]] = arith.muli %[[J1]], %[[S1]] : index
// INB-NEXT:          %[[A1:.*]] = arith.addi %[[M1]], %[[I1]] : index
// INB-NEXT:          %[[IN1:.*]] = arith.cmpi ult, %[[A1]], %[[UB1]] : index
// INB-NEXT:          %[[AND1:.*]] = arith.andi %[[AND0]], %[[IN1]] : i1
// INB-NEXT:          scf.if %[[AND1]] {
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[B]][%[[X0]], %[[X1]]] : memref<?x?xf32>
// CHECK-NEXT:          memref.store %[[V]], %[[C]][%[[X0]], %[[X1]]] : memref<?x?xf32>
// INB-NEXT:          }
// CHECK-NEXT:        scf.reduce
// CHECK-NEXT:      }
// CHECK-NEXT:      scf.reduce
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// -----

// The trip counts (8 and 8) are multiples of the tile sizes: the inner bound
// is the outer step, no affine.min and no scf.if.

func.func @static_loop_with_step() {
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c22 = arith.constant 22 : index
  %c24 = arith.constant 24 : index
  scf.parallel (%i0, %i1) = (%c0, %c0) to (%c22, %c24) step (%c3, %c3) {
  }
  return
}

// CHECK-LABEL: func.func @static_loop_with_step() {
// CHECK:         %[[C3:.*]] = arith.constant 3 : index
// CHECK:         %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[T0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[STEP0:.*]] = arith.muli %[[C3]], %[[T0]] : index
// CHECK-NEXT:    %[[STEP1:.*]] = arith.muli %[[C3]], %[[T1]] : index
// CHECK-NEXT:    scf.parallel (%[[I0:.*]], %[[I1:.*]]) = {{.*}} step (%[[STEP0]], %[[STEP1]]) {
// CHECK-NEXT:      scf.parallel (%[[J0:.*]], %[[J1:.*]]) = (%[[C0]], %[[C0]]) to (%[[STEP0]], %[[STEP1]]) step (%[[C3]], %[[C3]]) {
// CHECK-NEXT:        arith.addi %[[J0]], %[[I0]] : index
// CHECK-NEXT:        arith.addi %[[J1]], %[[I1]] : index
// CHECK-NEXT:        scf.reduce
// CHECK-NOT:     affine.min
// CHECK-NOT:     scf.if

// -----

// 10 iterations split into tiles of 1 but not into tiles of 4: only the
// second dimension gets a clamped bound (or the scf.if guard).

func.func @static_remainder() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c10, %c10) step (%c1, %c1) {
  }
  return
}

// CHECK-LABEL: func.func @static_remainder() {
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[C10:.*]] = arith.constant 10 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[T0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[STEP0:.*]] = arith.muli %[[C1]], %[[T0]] : index
// CHECK-NEXT:    %[[STEP1:.*]] = arith.muli %[[C1]], %[[T1]] : index
// CHECK-NEXT:    scf.parallel (%[[I0:.*]], %[[I1:.*]]) = {{.*}} to (%[[C10]], %[[C10]]) step (%[[STEP0]], %[[STEP1]]) {
// MINMAX-NEXT:     %[[N1:.*]] = affine.min affine_map<(d0, d1, d2) -> (d0, d1 - d2)>(%[[STEP1]], %[[C10]], %[[I1]])
// MINMAX-NEXT:     scf.parallel ({{.*}}) = (%[[C0]], %[[C0]]) to (%[[STEP0]], %[[N1]]) step (%[[C1]], %[[C1]]) {
// INB-NEXT:        scf.parallel ({{.*}}) = (%[[C0]], %[[C0]]) to (%[[STEP0]], %[[STEP1]]) step (%[[C1]], %[[C1]]) {
// INB:               arith.cmpi ult, %{{.*}}, %[[C10]] : index
// INB:               arith.cmpi ult, %{{.*}}, %[[C10]] : index
// INB:               scf.if

// -----

// Tile sizes past the loop's dimensions are ignored.

func.func @extra_sizes(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
  }
  return
}

// CHECK-LABEL: func.func @extra_sizes(
// CHECK:         %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[T0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[STEP:.*]] = arith.muli %[[C1]], %[[T0]] : index
// CHECK-NEXT:    scf.parallel
// CHECK-NOT:     arith.constant 4

// -----

// Dimensions without a tile size are tiled by 1.

func.func @missing_sizes(%n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j, %k) = (%c0, %c0, %c0) to (%n, %n, %n) step (%c1, %c1, %c1) {
  }
  return
}

// CHECK-LABEL: func.func @missing_sizes(
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    %[[T0:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[T1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[T2:.*]] = arith.constant 1 : index
// CHECK-NEXT:    arith.muli %{{.*}}, %[[T0]] : index
// CHECK-NEXT:    arith.muli %{{.*}}, %[[T1]] : index
// CHECK-NEXT:    arith.muli %{{.*}}, %[[T2]] : index
// CHECK-NEXT:    scf.parallel (%{{.*}}, %{{.*}}, %{{.*}}) =
// MINMAX-COUNT-3:  affine.min
// INB:             arith.cmpi ult
// INB:             arith.cmpi ult
// INB:             arith.cmpi ult
// INB:             scf.if

// -----

// Only innermost parallel loops are tiled; the enclosing one is left alone.

func.func @tile_nested_innermost() {
  %c2 = arith.constant 2 : index
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
    scf.parallel (%k, %l) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
    }
  }
  return
}

// CHECK-LABEL: func.func @tile_nested_innermost() {
// CHECK:         %[[C2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[C1:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.parallel ({{.*}}) = (%[[C0]], %[[C0]]) to (%[[C2]], %[[C2]]) step (%[[C1]], %[[C1]]) {
// CHECK-NEXT:      %[[C0_1:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[T0:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[T1:.*]] = arith.constant 4 : index
// CHECK-NEXT:      %[[STEP0:.*]] = arith.muli %[[C1]], %[[T0]] : index
// CHECK-NEXT:      %[[STEP1:.*]] = arith.muli %[[C1]], %[[T1]] : index
// CHECK-NEXT:      scf.parallel (%[[I0:.*]], %[[I1:.*]]) = (%[[C0]], %[[C0]]) to (%[[C2]], %[[C2]]) step (%[[STEP0]], %[[STEP1]]) {
// MINMAX-NEXT:       %[[N1:.*]] = affine.min affine_map<(d0, d1, d2) -> (d0, d1 - d2)>(%[[STEP1]], %[[C2]], %[[I1]])
// MINMAX-NEXT:       scf.parallel ({{.*}}) = (%[[C0_1]], %[[C0_1]]) to (%[[STEP0]], %[[N1]]) step (%[[C1]], %[[C1]]) {
// INB-NEXT:          scf.parallel ({{.*}}) = (%[[C0_1]], %[[C0_1]]) to (%[[STEP0]], %[[STEP1]]) step (%[[C1]], %[[C1]]) {
// INB:                 scf.if

// -----

// A parallel loop inside scf.for is tiled in place.

func.func @tile_nested_in_non_ploop() {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  scf.for %i = %c0 to %c2 step %c1 {
    scf.parallel (%k, %l) = (%c0, %c0) to (%c2, %c2) step (%c1, %c1) {
    }
  }
  return
}

// CHECK-LABEL: func.func @tile_nested_in_non_ploop() {
// CHECK:         scf.for
// CHECK-NEXT:      arith.constant 0 : index
// CHECK:           scf.parallel
// CHECK:             scf.parallel
// CHECK:               scf.reduce
// CHECK-NEXT:        }
// CHECK-NEXT:        scf.reduce
// CHECK-NEXT:      }
// CHECK-NEXT:    }
// CHECK-NEXT:    return

// -----

// Loops with reductions are left alone, as upstream does.

func.func @reduction_left_alone(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%c0) -> index {
    scf.reduce(%i : index) {
    ^bb0(%x: index, %y: index):
      %s = arith.addi %x, %y : index
      scf.reduce.return %s : index
    }
  }
  return %r : index
}

// CHECK-LABEL: func.func @reduction_left_alone(
// CHECK-NEXT:    arith.constant 0 : index
// CHECK-NEXT:    arith.constant 1 : index
// CHECK-NEXT:    scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%{{.*}}) init
// CHECK-NEXT:      scf.reduce(
// CHECK-NOT:     arith.muli
// CHECK-NOT:     scf.parallel
// CHECK:         return
