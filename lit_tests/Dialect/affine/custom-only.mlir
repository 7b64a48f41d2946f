// Subscripts whose maps only the custom form round-trips: xDSL's builtin
// affine_map parser, which reads the generic form's `<{map = ...}>`, rejects
// semi-affine maps and distributes `(d0 + 2) * 3` into `d0 * 3 + 6`.
// RUN: mlkit-opt %s | mlkit-opt | filecheck %s

// CHECK-LABEL: func.func @semi_affine
// CHECK-SAME: (%[[M:.*]]: memref<10x20xf32>, %[[N:.*]]: index)
func.func @semi_affine(%m: memref<10x20xf32>, %n: index) {
  affine.for %i = 0 to 10 {
    // CHECK: affine.load %[[M]][%[[I:.*]] * symbol(%[[N]]), %[[I]] mod symbol(%[[N]])] : memref<10x20xf32>
    %s = affine.load %m[%i * symbol(%n), %i mod symbol(%n)] : memref<10x20xf32>
    // CHECK: affine.load %[[M]][%[[I]] * symbol(%[[N]]), %[[I]] floordiv symbol(%[[N]])] : memref<10x20xf32>
    %t = affine.load %m[symbol(%n) * %i, %i floordiv symbol(%n)] : memref<10x20xf32>
  }
  return
}

// CHECK-LABEL: func.func @products_of_sums
func.func @products_of_sums(%m: memref<10x20xf32>) {
  affine.for %i = 0 to 10 {
    // Upstream keeps a product of a sum as written.
    // CHECK: affine.load %{{.*}}[(%[[I:.*]] + 2) * 3, -(%[[I]] * 2 + 1)] : memref<10x20xf32>
    %q = affine.load %m[(%i + 2) * 3, -(%i * 2 + 1)] : memref<10x20xf32>
    // CHECK: affine.store %{{.*}}, %{{.*}}[%[[I]] * 6, 0] : memref<10x20xf32>
    affine.store %q, %m[(%i * 2) * 3, %i * 0] : memref<10x20xf32>
  }
  return
}
