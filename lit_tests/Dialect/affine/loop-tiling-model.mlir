// affine-loop-tile without tile sizes: the band's memory footprint (the
// bounding boxes of what its accesses touch, per memref) is divided by the
// cache size, and the n-th root of that excess sets the tile size of all but
// the last of n loops, which takes the rest; each size then shrinks to a
// divisor of its loop's constant trip count. A band that fits the cache gets
// tiles of 1; one whose footprint is unknown gets tiles of 4, adjusted the
// same way. `cache-size=0` asks for tiles of 1.
// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file --verify-diagnostics -affine-loop-tile | filecheck %s
// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file --verify-diagnostics -affine-loop-tile="cache-size=64" | filecheck %s --check-prefix=C64
// RUN: mlkit-opt --mlir-print-local-scope %s --split-input-file -affine-loop-tile="cache-size=0" 2>/dev/null | filecheck %s --check-prefix=C0

// About 5.1 MiB: 11 times 512 KiB, 82 times 64 KiB.

// CHECK-LABEL: func.func @vector_matmul
// CHECK:         affine.for %{{.*}} = 0 to 128 step 2 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 128 step 2 {
// CHECK-NEXT:        affine.for %{{.*}} = 0 to 100 step 2 {
// C64-LABEL: func.func @vector_matmul
// C64:         affine.for %{{.*}} = 0 to 128 step 4 {
// C64-NEXT:      affine.for %{{.*}} = 0 to 128 step 4 {
// C64-NEXT:        affine.for %{{.*}} = 0 to 100 step 5 {
// C0-LABEL: func.func @vector_matmul
// C0:         affine.for %{{.*}} = 0 to 128 {
// C0-NEXT:      affine.for %{{.*}} = 0 to 128 {
// C0-NEXT:        affine.for %{{.*}} = 0 to 100 {
// C0-NEXT:          affine.for %{{.*}} = affine_map<(d0) -> (d0)>(%{{.*}}) to affine_map<(d0) -> (d0 + 1)>(%{{.*}}) {
func.func @vector_matmul(%a: memref<128x100xvector<32xf32>>, %b: memref<100x128xvector<32xf32>>, %c: memref<128x128xvector<32xf32>>) {
  affine.for %i = 0 to 128 {
    affine.for %j = 0 to 128 {
      affine.for %k = 0 to 100 {
        %x = affine.load %a[%i, %k] : memref<128x100xvector<32xf32>>
        %y = affine.load %b[%k, %j] : memref<100x128xvector<32xf32>>
        %z = affine.load %c[%i, %j] : memref<128x128xvector<32xf32>>
        %p = arith.mulf %x, %y : vector<32xf32>
        %s = arith.addf %z, %p : vector<32xf32>
        affine.store %s, %c[%i, %j] : memref<128x128xvector<32xf32>>
      }
    }
  }
  return
}

// -----

// 16 KiB fits either cache: tiles of 1.

// CHECK-LABEL: func.func @fits
// CHECK:         affine.for %[[I:.*]] = 0 to 64 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 64 {
// CHECK-NEXT:        affine.for %{{.*}} = affine_map<(d0) -> (d0)>(%[[I]]) to affine_map<(d0) -> (d0 + 1)>(%[[I]]) {
// C64-LABEL: func.func @fits
// C64:         affine.for %{{.*}} = 0 to 64 {
func.func @fits(%a: memref<64x64xf32>) {
  affine.for %i = 0 to 64 {
    affine.for %j = 0 to 64 {
      %x = affine.load %a[%i, %j] : memref<64x64xf32>
      %y = arith.addf %x, %x : f32
      affine.store %y, %a[%i, %j] : memref<64x64xf32>
    }
  }
  return
}

// -----

// A dynamic memref: no constant extent along its first dimension, so the
// load's and the store's regions cannot be merged and the footprint is
// unknown: tiles of 4, the one over 6 iterations shrunk to 3.

// CHECK-LABEL: func.func @unknown_footprint
// CHECK:         affine.for %{{.*}} = 0 to %{{.*}} step 4 {
// CHECK-NEXT:      affine.for %{{.*}} = 0 to 6 step 3 {
func.func @unknown_footprint(%a: memref<?x6xf32>, %n: index) {
  affine.for %i = 0 to %n {
    affine.for %j = 0 to 6 {
      %x = affine.load %a[%i, %j] : memref<?x6xf32>
      // expected-warning @below {{getMemoryFootprintBytes: unable to perform a union on a memory region}}
      affine.store %x, %a[%i, %j] : memref<?x6xf32>
    }
  }
  return
}

// -----

// A single memref region whose extent is unknown is bounded by the memref's
// static size; two regions of one memref whose lower bounds differ by a
// symbol cannot be merged.

// CHECK-LABEL: func.func @unmergeable_regions
// CHECK:         affine.for %{{.*}} = 0 to 32 step 4 {
func.func @unmergeable_regions(%a: memref<?xf32>, %n: index) {
  affine.for %i = 0 to 32 {
    %x = affine.load %a[%i] : memref<?xf32>
    // expected-warning @below {{getMemoryFootprintBytes: unable to perform a union on a memory region}}
    affine.store %x, %a[%i + symbol(%n)] : memref<?xf32>
  }
  return
}
