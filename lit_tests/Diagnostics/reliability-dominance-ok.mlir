// RUN: mlkit-opt %s | mlkit-opt | filecheck %s

// What upstream's dominance rules allow: values from dominating blocks and
// enclosing regions, any order inside a graph region (builtin.module), and
// anything at all in an unreachable block.

// CHECK-LABEL: func.func @dominated
func.func @dominated(%c: i1, %z: i32) -> i32 {
  %y = arith.addi %z, %z : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %x = arith.addi %y, %z : i32
  cf.br ^bb3(%x : i32)
^bb2:
  cf.br ^bb3(%y : i32)
^bb3(%r: i32):
  %w = scf.if %c -> (i32) {
    %q = arith.addi %r, %y : i32
    scf.yield %q : i32
  } else {
    scf.yield %r : i32
  }
  return %w : i32
// CHECK: ^bb4:
// CHECK-NEXT: %[[U:.*]] = arith.addi %[[V:.*]], %[[V]] : i32
// CHECK-NEXT: %[[V]] = arith.addi
^bb4:
  %u = arith.addi %v, %v : i32
  %v = arith.addi %z, %z : i32
  cf.br ^bb4
}
