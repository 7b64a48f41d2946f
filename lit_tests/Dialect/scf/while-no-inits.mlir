// RUN: mlkit-opt --allow-unregistered-dialect %s | mlkit-opt --allow-unregistered-dialect | filecheck %s
// RUN: mlkit-opt --allow-unregistered-dialect %s --mlir-print-op-generic | mlkit-opt --allow-unregistered-dialect | filecheck %s
// RUN: mlkit-opt --allow-unregistered-dialect %s --convert-scf-to-cf | filecheck %s --check-prefix=CF

// scf.while may take no initial values: the '(%x = %init)' list is left out,
// in the printed form as well.

// CHECK-LABEL: func.func @spin
// CHECK:         scf.while : () -> () {
// CHECK-NEXT:      %[[C:.*]] = "mine.poll"() : () -> i1
// CHECK-NEXT:      scf.condition(%[[C]])
// CHECK-NEXT:    } do {
// CHECK-NEXT:      "mine.work"() : () -> ()
// CHECK-NEXT:      scf.yield
// CHECK-NEXT:    } attributes {tag = 3 : i64}
// CF-LABEL:    func.func @spin
// CF:            cf.br ^[[HEAD:bb[0-9]+]]
// CF:          ^[[HEAD]]:
// CF-NEXT:       %[[C:.*]] = "mine.poll"() : () -> i1
// CF-NEXT:       cf.cond_br %[[C]], ^[[BODY:bb[0-9]+]], ^[[EXIT:bb[0-9]+]]
// CF:          ^[[BODY]]:
// CF-NEXT:       "mine.work"() : () -> ()
// CF-NEXT:       cf.br ^[[HEAD]]
// CF:          ^[[EXIT]]:
// CF-NEXT:       return
// CF-NOT:        scf.
func.func @spin() {
  scf.while : () -> () {
    %go = "mine.poll"() : () -> i1
    scf.condition(%go)
  } do {
    "mine.work"() : () -> ()
    scf.yield
  } attributes {tag = 3}
  return
}

// CHECK-LABEL: func.func @results_only
// CHECK:         %{{.*}} = scf.while : () -> i32 {
// CHECK:           scf.condition(%{{.*}}) %{{.*}} : i32
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%{{.*}}: i32):
// CF-LABEL:    func.func @results_only
// CF-NOT:        scf.
// CF:            return
func.func @results_only(%c: i1, %v: i32) -> i32 {
  %r = scf.while : () -> i32 {
    scf.condition(%c) %v : i32
  } do {
  ^bb0(%x: i32):
    scf.yield
  }
  return %r : i32
}
