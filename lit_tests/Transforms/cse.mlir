// cse across blocks, as upstream's: an op is replaced by an equal one in a
// block that dominates it, never by one in a sibling block; reads are not
// merged across blocks; unreachable blocks are left alone.
// RUN: mlkit-opt %s -p 'builtin.module(cse)' --split-input-file | filecheck %s

// CHECK-LABEL: func.func @diamond
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: i32)
// CHECK:        %[[A:.*]] = arith.addi %[[X]], %[[X]]
// CHECK:        cf.cond_br
// CHECK:      ^bb1:
// CHECK-NEXT:   cf.br ^bb3(%[[A]] : i32)
// CHECK:      ^bb2:
// CHECK-NEXT:   %[[K2:.*]] = arith.constant 7
// CHECK-NEXT:   %[[D:.*]] = arith.muli %[[A]], %[[K2]]
// CHECK:      ^bb3(%[[Z:.*]]: i32):
// CHECK-NEXT:   %[[K3:.*]] = arith.constant 7
// CHECK-NEXT:   %[[S:.*]] = arith.addi %[[Z]], %[[A]]
// CHECK-NEXT:   arith.addi %[[S]], %[[K3]]
func.func @diamond(%c: i1, %x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = arith.addi %x, %x : i32
  %k1 = arith.constant 7 : i32
  cf.br ^bb3(%b : i32)
^bb2:
  %k2 = arith.constant 7 : i32
  %d = arith.muli %a, %k2 : i32
  cf.br ^bb3(%d : i32)
^bb3(%z: i32):
  %e = arith.addi %x, %x : i32
  %k3 = arith.constant 7 : i32
  %s = arith.addi %z, %e : i32
  %t = arith.addi %s, %k3 : i32
  return %t : i32
}

// -----

// The loop header dominates the body and the exit.
// CHECK-LABEL: func.func @loop
// CHECK:      ^{{.*}}(%[[I:.*]]: index):
// CHECK-NEXT:   %[[C1:.*]] = arith.constant 1 : index
// CHECK-NOT:    arith.constant
// CHECK:        arith.addi %[[I]], %[[C1]]
// CHECK-NOT:    arith.constant
// CHECK:        arith.addi %[[I]], %[[C1]]
func.func @loop(%n: index) -> index {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^h(%c0 : index)
^h(%i: index):
  %one = arith.constant 1 : index
  %lt = arith.cmpi slt, %i, %n : index
  cf.cond_br %lt, ^body, ^exit
^body:
  %c1b = arith.constant 1 : index
  %next = arith.addi %i, %c1b : index
  cf.br ^h(%next : index)
^exit:
  %r = arith.addi %i, %one : index
  return %r : index
}

// -----

// CHECK-LABEL: func.func @reads
// CHECK:      memref.load
// CHECK:      ^bb1:
// CHECK-NEXT:   memref.load
// CHECK:      ^bb2:
// CHECK-NEXT:   %[[D:.*]] = memref.load
// CHECK-NEXT:   arith.addf %[[D]], %[[D]]
func.func @reads(%m: memref<4xf32>, %c: i1) -> f32 {
  %c0 = arith.constant 0 : index
  %a = memref.load %m[%c0] : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %b = memref.load %m[%c0] : memref<4xf32>
  %s = arith.addf %a, %b : f32
  return %s : f32
^bb2:
  %c0b = arith.constant 0 : index
  %d = memref.load %m[%c0b] : memref<4xf32>
  %e = memref.load %m[%c0b] : memref<4xf32>
  %t = arith.addf %d, %e : f32
  return %t : f32
}

// -----

// CHECK-LABEL: func.func @unreachable
// CHECK:      ^{{.*}}:
// CHECK-NEXT:   arith.addi
// CHECK-NEXT:   arith.addi
// CHECK-NEXT:   arith.addi
func.func @unreachable(%x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  return %a : i32
^dead:
  %b = arith.addi %x, %x : i32
  %c = arith.addi %x, %x : i32
  %d = arith.addi %b, %c : i32
  return %d : i32
}

// -----

// A multi-block region nested in a block sees what dominates that block.
// CHECK-LABEL: func.func @nested
// CHECK-SAME: (%[[C:.*]]: i1, %[[X:.*]]: i32)
// CHECK:        %[[A:.*]] = arith.addi %[[X]], %[[X]]
// CHECK:        scf.if
// CHECK-NEXT:     scf.yield %[[A]]
// CHECK:        scf.execute_region
// CHECK-NEXT:     cf.br ^[[N:.*]]
// CHECK:        ^[[N]]:
// CHECK-NEXT:     %[[H:.*]] = arith.addi %[[A]], %[[A]]
// CHECK-NEXT:     scf.yield %[[H]]
func.func @nested(%c: i1, %x: i32) -> i32 {
  %a = arith.addi %x, %x : i32
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %r = scf.if %c -> (i32) {
    %b = arith.addi %x, %x : i32
    scf.yield %b : i32
  } else {
    scf.yield %a : i32
  }
  return %r : i32
^bb2:
  %e = scf.execute_region -> i32 {
    %f = arith.addi %x, %x : i32
    cf.br ^n
  ^n:
    %g = arith.addi %x, %x : i32
    %h = arith.addi %f, %g : i32
    scf.yield %h : i32
  }
  return %e : i32
}
