// affine-loop-tile tiles a band only when no dependence between its
// accesses has a known negative distance on one of its loops: tiles run in
// lexicographic order, so such a dependence would be reversed. A distance of
// exactly -1 counts (upstream's fix; the oracle's older build tiles it), and
// accesses the analysis cannot read (semi-affine) leave the band alone.
// RUN: mlkit-opt %s --split-input-file -affine-loop-tile="tile-size=32" | filecheck %s

// CHECK-LABEL: func.func @legal_stencil
// CHECK:         affine.for %{{.*}} = 1 to 99 step 32 {
func.func @legal_stencil(%a: memref<100x100xf32>) {
  affine.for %i = 1 to 99 {
    affine.for %j = 1 to 99 {
      %n = affine.load %a[%i - 1, %j] : memref<100x100xf32>
      %w = affine.load %a[%i, %j - 1] : memref<100x100xf32>
      %s = arith.addf %n, %w : f32
      affine.store %s, %a[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @skewed_dependence
// CHECK:         affine.for %{{.*}} = 1 to 99 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 97 {
func.func @skewed_dependence(%a: memref<100x100xf32>) {
  affine.for %i = 1 to 99 {
    affine.for %j = 0 to 97 {
      %v = affine.load %a[%i - 1, %j + 2] : memref<100x100xf32>
      affine.store %v, %a[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @distance_minus_one
// CHECK:         affine.for %{{.*}} = 0 to 99 {
// CHECK-NEXT:      affine.for %{{.*}} = 1 to 100 {
func.func @distance_minus_one(%a: memref<100x100xf32>) {
  affine.for %i = 0 to 99 {
    affine.for %j = 1 to 100 {
      %v = affine.load %a[%i + 1, %j - 1] : memref<100x100xf32>
      affine.store %v, %a[%i, %j] : memref<100x100xf32>
    }
  }
  return
}

// -----

// CHECK-LABEL: func.func @semi_affine
// CHECK:         affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 64 {
func.func @semi_affine(%a: memref<?xf32>, %s: index) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%i * symbol(%s) + %j] : memref<?xf32>
      affine.store %v, %a[%i * symbol(%s) + %j + 1] : memref<?xf32>
    }
  }
  return
}

// -----

// Reads of one memref never conflict; a write to another memref neither.

// CHECK-LABEL: func.func @reads_only
// CHECK:         affine.for %{{.*}} = 0 to 64 step 32 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 64 step 32 {
func.func @reads_only(%a: memref<64x64xf32>, %b: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %v = affine.load %a[%i + 1, %j - 1] : memref<64x64xf32>
      %w = affine.load %a[%i, %j] : memref<64x64xf32>
      %s = arith.addf %v, %w : f32
      affine.store %s, %b[%j, %i] : memref<64x64xf32>
    }
  }
  return
}
