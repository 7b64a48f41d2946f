// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-tile-parallel-loops)' | filecheck %s
// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-tile-parallel-loops{tile-sizes-1d=128 tile-sizes-2d=16,16})' | filecheck %s --check-prefix=SIZES

// gpu-tile-parallel-loops tiles each parallel loop that would map onto the
// grid alone, with sizes by rank (outer dimension first), as
// scf-parallel-loop-tiling{no-min-max-bounds} tiles: constant-size inner
// loops, the body guarded where the tile does not divide the range.

// SIZES-LABEL: func.func @one_d(
// SIZES:         arith.constant 128 : index
// SIZES-LABEL: func.func @two_d(
// SIZES:         arith.constant 16 : index
// SIZES-NEXT:    arith.constant 16 : index

// 1-D: 256 threads per tile, the bounds guarded.
func.func @one_d(%n: index, %m: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    %v = memref.load %m[%i] : memref<?xf32>
    memref.store %v, %m[%i] : memref<?xf32>
  }
  return
}

// CHECK-LABEL: func.func @one_d(
// CHECK-SAME:      %[[N:.*]]: index, %[[M:.*]]: memref<?xf32>)
// CHECK:         %[[T:.*]] = arith.constant 256 : index
// CHECK:         %[[STEP:.*]] = arith.constant 256 : index
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%[[N]]) step (%[[STEP]]) {
// CHECK-NEXT:      scf.parallel (%[[J:.*]]) = (%{{.*}}) to (%[[STEP]]) step (%{{.*}}) {
// CHECK:             %[[X:.*]] = arith.addi %[[J]], %[[I]] : index
// CHECK:             %[[IN:.*]] = arith.cmpi ult, %{{.*}}, %[[N]] : index
// CHECK:             %[[GUARD:.*]] = arith.andi %{{.*}}, %[[IN]] : i1
// CHECK:             scf.if %[[GUARD]] {
// CHECK-NEXT:          memref.load %[[M]][%[[X]]]

// -----

// 2-D: 8 rows by 32 columns; 1024 is a multiple of both, so no guard.
func.func @two_d(%m: memref<1024x1024xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c1024 = arith.constant 1024 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1024, %c1024) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<1024x1024xf32>
    memref.store %v, %m[%j, %i] : memref<1024x1024xf32>
  }
  return
}

// CHECK-LABEL: func.func @two_d(
// CHECK-DAG:     %[[T0:.*]] = arith.constant 8 : index
// CHECK-DAG:     %[[T1:.*]] = arith.constant 32 : index
// CHECK:         %[[S0:.*]] = arith.constant 8 : index
// CHECK:         %[[S1:.*]] = arith.constant 32 : index
// CHECK:         scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%{{.*}}, %{{.*}}) step (%[[S0]], %[[S1]]) {
// CHECK-NEXT:      scf.parallel (%{{.*}}, %{{.*}}) = (%{{.*}}, %{{.*}}) to (%[[S0]], %[[S1]]) step
// CHECK-NOT:       scf.if
// CHECK:           memref.load

// -----

// A dimension smaller than its tile: the tile shrinks to it and the other
// dimension gets the threads (1000 x 3 -> 64 x 4).
func.func @narrow(%m: memref<1000x3xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i, %j) = (%c0, %c0) to (%c1000, %c3) step (%c1, %c1) {
    %v = memref.load %m[%i, %j] : memref<1000x3xf32>
    memref.store %v, %m[%i, %j] : memref<1000x3xf32>
  }
  return
}

// CHECK-LABEL: func.func @narrow(
// CHECK-DAG:     arith.constant 64 : index
// CHECK-DAG:     arith.constant 4 : index
// CHECK:         scf.if

// -----

// 4-D: the 3-D sizes on the first three dimensions, 1 on the fourth.
func.func @four_d(%n: index, %m: memref<?x?x?x?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %j, %k, %l) = (%c0, %c0, %c0, %c0) to (%n, %n, %n, %n) step (%c1, %c1, %c1, %c1) {
    %v = memref.load %m[%i, %j, %k, %l] : memref<?x?x?x?xf32>
    memref.store %v, %m[%i, %j, %k, %l] : memref<?x?x?x?xf32>
  }
  return
}

// CHECK-LABEL: func.func @four_d(
// CHECK:         %[[T0:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[T1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[T2:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[T3:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[S0:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[S1:.*]] = arith.constant 4 : index
// CHECK-NEXT:    %[[S2:.*]] = arith.constant 32 : index
// CHECK-NEXT:    %[[S3:.*]] = arith.constant 1 : index
// CHECK-NEXT:    scf.parallel {{.*}} step (%[[S0]], %[[S1]], %[[S2]], %[[S3]]) {

// -----

// Left alone: a nest of parallel loops (it maps onto blocks and threads as
// it is), a loop that is already mapped, one with a reduction, one inside a
// launch.
func.func @left_alone(%n: index, %m: memref<?x?xf32>, %s: memref<f32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %f0 = arith.constant 0.0 : f32
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    scf.parallel (%j) = (%c0) to (%n) step (%c1) {
      %v = memref.load %m[%i, %j] : memref<?x?xf32>
      memref.store %v, %m[%j, %i] : memref<?x?xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%n) step (%c1) {
    memref.store %f0, %m[%i, %i] : memref<?x?xf32>
  } {mapping = [#gpu.loop_dim_map<processor = block_x, map = (d0) -> (d0), bound = (d0) -> (d0)>]}
  %r = scf.parallel (%i) = (%c0) to (%n) step (%c1) init (%f0) -> f32 {
    %v = memref.load %m[%i, %i] : memref<?x?xf32>
    scf.reduce(%v : f32) {
    ^bb0(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      scf.reduce.return %t : f32
    }
  }
  memref.store %r, %s[] : memref<f32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    scf.parallel (%i) = (%c0) to (%n) step (%c1) {
      memref.store %f0, %m[%i, %i] : memref<?x?xf32>
    }
    gpu.terminator
  }
  return
}

// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     arith.muli
// CHECK:         scf.parallel (%[[I:.*]]) = (%{{.*}}) to (%{{.*}}) step (%[[C1:.*]]) {
// CHECK-NEXT:      scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[C1]]) {
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[C1]]) {
// CHECK:         } {mapping = [#gpu.loop_dim_map<processor = block_x
// CHECK:         scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[C1]]) init
// CHECK:         gpu.launch
// CHECK-NEXT:      scf.parallel (%{{.*}}) = (%{{.*}}) to (%{{.*}}) step (%[[C1]]) {
