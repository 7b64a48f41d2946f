// Folding pass-through successors of cf.cond_br keeps its branch weights:
// the two edges are the same edges, only shorter.
// RUN: mlkit-opt %s -canonicalize | filecheck %s

// CHECK-LABEL: func.func @keeps_weights
// CHECK-SAME: (%[[X:.*]]: i32, %[[Y:.*]]: i32, %[[C:.*]]: i1)
// CHECK: cf.cond_br %[[C]] weights([5, 95]), ^bb1, ^bb2
// CHECK: ^bb1:
// CHECK-NEXT: return %[[X]]
// CHECK: ^bb2:
// CHECK-NEXT: return %[[Y]]
func.func @keeps_weights(%x: i32, %y: i32, %c: i1) -> i32 {
  cf.cond_br %c weights([5, 95]), ^hop_a, ^hop_b
^hop_a:
  cf.br ^take_x
^hop_b:
  cf.br ^take_y
^take_x:
  return %x : i32
^take_y:
  return %y : i32
}

// CHECK-LABEL: func.func @no_weights
// CHECK: cf.cond_br %{{.*}}, ^bb1, ^bb2
func.func @no_weights(%x: i32, %y: i32, %c: i1) -> i32 {
  cf.cond_br %c, ^hop_a, ^take_y
^hop_a:
  cf.br ^take_x
^take_x:
  return %x : i32
^take_y:
  return %y : i32
}
