// affine-loop-tile with fixed tile sizes: every top-level perfect band of
// affine.for loops becomes tile-space loops stepping by the tile, around
// intra-tile loops from the tile IV to the IV plus a tile; a `min` with the
// original upper bounds appears only where the tile may not divide the trip
// count, and a loop shorter than a tile runs its whole trip count.
// RUN: mlkit-opt --mlir-print-local-scope %s --allow-unregistered-dialect --split-input-file -affine-loop-tile="tile-size=32" | filecheck %s
// RUN: mlkit-opt --mlir-print-local-scope %s --allow-unregistered-dialect --split-input-file -affine-loop-tile="tile-size=32 separate" | filecheck %s --check-prefix=SEP
// RUN: mlkit-opt --mlir-print-local-scope %s --allow-unregistered-dialect --split-input-file -affine-loop-tile="tile-sizes=8" | filecheck %s --check-prefix=SIZES

// CHECK-LABEL: func.func @constant_bounds
// CHECK:         affine.for %[[I:.*]] = 0 to 64 step 32 {
// CHECK-NEXT:      affine.for %[[J:.*]] = 0 to 96 step 32 {
// CHECK-NEXT:        affine.for %[[II:.*]] = affine_map<(d0) -> (d0)>(%[[I]]) to affine_map<(d0) -> (d0 + 32)>(%[[I]]) {
// CHECK-NEXT:          affine.for %[[JJ:.*]] = affine_map<(d0) -> (d0)>(%[[J]]) to affine_map<(d0) -> (d0 + 32)>(%[[J]]) {
// CHECK-NEXT:            "test.use"(%[[II]], %[[JJ]])
// CHECK:         affine.for %[[K:.*]] = 0 to 70 step 32 {
// CHECK-NEXT:      affine.for %[[KK:.*]] = affine_map<(d0) -> (d0)>(%[[K]]) to min affine_map<(d0) -> (d0 + 32, 70)>(%[[K]]) {
// CHECK-NEXT:        "test.use"(%[[KK]])
// CHECK:         affine.for %[[L:.*]] = 3 to 20 step 32 {
// CHECK-NEXT:      affine.for %[[LL:.*]] = affine_map<(d0) -> (d0)>(%[[L]]) to affine_map<(d0) -> (d0 + 17)>(%[[L]]) {

// SIZES-LABEL: func.func @constant_bounds
// SIZES:         affine.for %{{.*}} = 0 to 64 step 8 {
// SIZES-NEXT:      affine.for %{{.*}} = 0 to 96 step 4 {
func.func @constant_bounds() {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 96 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  affine.for %k = 0 to 70 {
    "test.use"(%k) : (index) -> ()
  }
  affine.for %l = 3 to 20 {
    "test.use"(%l) : (index) -> ()
  }
  return
}

// -----

// A symbolic upper bound keeps its operands in the intra-tile `min`; a
// non-unit step scales the tile-space step and stays on the intra-tile loop.

// CHECK-LABEL: func.func @symbolic_bounds
// CHECK-SAME:    (%[[N:.*]]: index, %[[M:.*]]: index)
// CHECK:         affine.for %[[I:.*]] = 0 to %[[N]] step 32 {
// CHECK-NEXT:      affine.for %[[II:.*]] = affine_map<(d0) -> (d0)>(%[[I]]) to min affine_map<(d0)[s0] -> (d0 + 32, s0)>(%[[I]])[%[[N]]] {
// CHECK:         affine.for %[[J:.*]] = 2 to %[[M]] step 96 {
// CHECK-NEXT:      affine.for %[[JJ:.*]] = affine_map<(d0) -> (d0)>(%[[J]]) to min affine_map<(d0)[s0] -> (d0 + 96, s0)>(%[[J]])[%[[M]]] step 3 {
// CHECK-NEXT:        "test.use"(%[[JJ]])
func.func @symbolic_bounds(%n: index, %m: index) {
  affine.for %i = 0 to %n {
    "test.use"(%i) : (index) -> ()
  }
  affine.for %j = 2 to %m step 3 {
    "test.use"(%j) : (index) -> ()
  }
  return
}

// -----

// max/min bounds stay on the tile-space loop; the intra-tile `min` appends
// the tile-space IV as a new dimension after the original ones.

// CHECK-LABEL: func.func @max_min_bounds
// CHECK-SAME:    (%[[A:.*]]: index, %[[B:.*]]: index, %[[C:.*]]: index, %[[D:.*]]: index)
// CHECK:         affine.for %[[I:.*]] = max affine_map<(d0, d1) -> (d0, d1)>(%[[A]], %[[B]]) to min affine_map<(d0)[s0] -> (d0, s0 + 10)>(%[[C]])[%[[D]]] step 32 {
// CHECK-NEXT:      affine.for %[[II:.*]] = affine_map<(d0) -> (d0)>(%[[I]]) to min affine_map<(d0, d1)[s0] -> (d1 + 32, d0, s0 + 10)>(%[[C]], %[[I]])[%[[D]]] {

// Its full tiles need both `i + 32 <= c` and `i + 32 <= d + 10`; the set's
// symbols come in upstream's order, the bound's symbol before the dimension
// promoted to one.
// SEP-LABEL: func.func @max_min_bounds
// SEP-SAME:    (%{{.*}}: index, %{{.*}}: index, %[[C:.*]]: index, %[[D:.*]]: index)
// SEP:         affine.for %[[I:.*]] = max
// SEP-NEXT:      affine.if affine_set<(d0)[s0, s1] : (-d0 + s1 - 32 >= 0, -d0 + s0 - 22 >= 0)>(%[[I]])[%[[D]], %[[C]]] {
// SEP-NEXT:        affine.for %{{.*}} = affine_map<(d0) -> (d0)>(%[[I]]) to affine_map<(d0) -> (d0 + 32)>(%[[I]]) {
// SEP:           } else {
// SEP-NEXT:        affine.for %{{.*}} = affine_map<(d0) -> (d0)>(%[[I]]) to min
func.func @max_min_bounds(%a: index, %b: index, %c: index, %d: index) {
  affine.for %i = max affine_map<(d0, d1) -> (d0, d1)>(%a, %b) to min affine_map<(d0)[s0] -> (d0, s0 + 10)>(%c)[%d] {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// A trip count known through the operands: the bounds differ by 3.

// CHECK-LABEL: func.func @offset_bounds
// CHECK:         affine.for %[[I:.*]] = affine_map<(d0) -> (d0 + 1)>(%{{.*}}) to affine_map<(d0) -> (d0 + 4)>(%{{.*}}) step 32 {
// CHECK-NEXT:      affine.for %{{.*}} = affine_map<(d0) -> (d0)>(%[[I]]) to affine_map<(d0) -> (d0 + 3)>(%[[I]]) {
func.func @offset_bounds(%n: index) {
  affine.for %i = affine_map<(d0) -> (d0 + 1)>(%n) to affine_map<(d0) -> (d0 + 4)>(%n) {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// Separation: full tiles run loops with constant trip counts under an
// affine.if; the partial tiles keep the `min` bounds in the else branch.

// SEP-LABEL: func.func @separate_2d
// SEP-SAME:    (%[[N:.*]]: index)
// SEP:         affine.for %[[I:.*]] = 0 to %[[N]] step 32 {
// SEP-NEXT:      affine.for %[[J:.*]] = 0 to 100 step 32 {
// SEP-NEXT:        affine.if affine_set<(d0, d1)[s0] : (-d0 + s0 - 32 >= 0, -d1 + 68 >= 0)>(%[[I]], %[[J]])[%[[N]]] {
// SEP-NEXT:          affine.for %[[FI:.*]] = affine_map<(d0) -> (d0)>(%[[I]]) to affine_map<(d0) -> (d0 + 32)>(%[[I]]) {
// SEP-NEXT:            affine.for %[[FJ:.*]] = affine_map<(d0) -> (d0)>(%[[J]]) to affine_map<(d0) -> (d0 + 32)>(%[[J]]) {
// SEP-NEXT:              "test.use"(%[[FI]], %[[FJ]])
// SEP-NEXT:            }
// SEP-NEXT:          }
// SEP-NEXT:        } else {
// SEP-NEXT:          affine.for %[[PI:.*]] = affine_map<(d0) -> (d0)>(%[[I]]) to min affine_map<(d0)[s0] -> (d0 + 32, s0)>(%[[I]])[%[[N]]] {
// SEP-NEXT:            affine.for %[[PJ:.*]] = affine_map<(d0) -> (d0)>(%[[J]]) to min affine_map<(d0) -> (d0 + 32, 100)>(%[[J]]) {
// SEP-NEXT:              "test.use"(%[[PI]], %[[PJ]])
func.func @separate_2d(%n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 100 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}

// -----

// When every tile is full the guard is trivially true, as upstream makes it;
// a stepped intra-tile loop has no full-tile version.

// SEP-LABEL: func.func @all_full
// SEP:         affine.if affine_set<() : (0 == 0)>() {
// SEP:         } else {
// SEP-LABEL: func.func @stepped
// SEP-NOT:     affine.if
// SEP:         return
func.func @all_full() {
  affine.for %i = 0 to 64 {
    "test.use"(%i) : (index) -> ()
  }
  return
}
func.func @stepped(%n: index) {
  affine.for %i = 0 to %n step 2 {
    "test.use"(%i) : (index) -> ()
  }
  return
}

// -----

// Left alone: a loop with results, a nest whose inner bound uses the outer
// IV, and a loop that is not directly in the function's body. An imperfect
// nest is tiled as the band of its outer loop only.

// CHECK-LABEL: func.func @untouched
// CHECK:         affine.for %{{.*}} = 0 to 10 iter_args
// CHECK-NOT:       step 32
// CHECK:         affine.for %[[I:.*]] = 0 to 128 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to affine_map<(d0) -> (d0)>(%[[I]]) {
// CHECK:         scf.execute_region {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 128 {
func.func @untouched(%init: index) {
  %r = affine.for %i = 0 to 10 iter_args(%s = %init) -> index {
    affine.yield %s : index
  }
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to affine_map<(d0) -> (d0)>(%i) {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  scf.execute_region {
    affine.for %i = 0 to 128 {
      "test.use"(%i) : (index) -> ()
    }
    scf.yield
  }
  return
}

// CHECK-LABEL: func.func @imperfect
// CHECK:         affine.for %[[I:.*]] = 0 to 64 step 32 {
// CHECK-NEXT:      affine.for %[[II:.*]] = affine_map<(d0) -> (d0)>(%[[I]]) to affine_map<(d0) -> (d0 + 32)>(%[[I]]) {
// CHECK-NEXT:        "test.use"(%[[II]])
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 64 {
func.func @imperfect() {
  affine.for %i = 0 to 64 {
    "test.use"(%i) : (index) -> ()
    affine.for %j = 0 to 64 {
      "test.use"(%i, %j) : (index, index) -> ()
    }
  }
  return
}
