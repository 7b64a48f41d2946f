// RUN: mlkit-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: mlkit-opt %s --allow-unregistered-dialect --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC

// An unregistered op ending a body is no terminator: the implicit yield of
// scf.if, scf.for and affine.for is still added, as upstream adds it.
// CHECK-LABEL: func.func @bodies
//       CHECK: scf.if
//  CHECK-NEXT:   "test.use"() : () -> ()
//  CHECK-NEXT: }
// GENERIC-COUNT-2: "scf.yield"() : () -> ()
// GENERIC: "affine.yield"() : () -> ()
func.func @bodies(%c: i1, %n: index) {
  scf.if %c {
    "test.use"() : () -> ()
  }
  scf.for %i = %n to %n step %n {
    "test.use"() : () -> ()
  }
  affine.for %i = 0 to 4 {
    "test.use"() : () -> ()
  }
  return
}
