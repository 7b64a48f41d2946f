// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// cf.cond_br with upstream's optional branch weights.

// CHECK-LABEL: func.func @cond_weights
func.func @cond_weights(%c: i1, %x: i32) {
  // CHECK: cf.cond_br %{{.*}} weights([60, 40]), ^bb1(%{{.*}} : i32), ^bb2
  cf.cond_br %c weights([60, 40]), ^bb1(%x : i32), ^bb2
^bb1(%a: i32):
  // CHECK: cf.cond_br %{{.*}}, ^bb2, ^bb2
  cf.cond_br %c, ^bb2, ^bb2
^bb2:
  return
}
