// canonicalize's default region simplification and block arguments: uses of
// an argument that every predecessor passes one value for get that value, and
// dead arguments go with what the predecessors pass for them; blocks do not
// merge (that is region-simplify=aggressive). Each case's output is checked
// against upstream's by tests/test_pass_files_as_upstream.py.

// RUN: mlkit-opt %s --allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(canonicalize))' | filecheck %s

// CHECK-LABEL: func.func @common_value
// CHECK-NEXT:    cf.cond_br %arg0, ^bb2(%arg3 : i32), ^bb1
// CHECK:         cf.br ^bb2(%arg2 : i32)
// CHECK-NEXT:  ^bb2(%[[B:.*]]: i32):
// CHECK-NEXT:    arith.addi %arg2, %[[B]] : i32
func.func @common_value(%c: i1, %d: i1, %x: i32, %y: i32, %m: memref<i32>) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2
^bb2:
  memref.store %x, %m[] : memref<i32>
  cf.br ^bb1(%x, %x : i32, i32)
^bb1(%a: i32, %b: i32):
  %r = arith.addi %a, %b : i32
  return %r : i32
}

// -----

// CHECK-LABEL: func.func @dead_argument
// CHECK-NEXT:    cf.cond_br %arg0, ^bb2(%arg1 : i32), ^bb1
// CHECK:         cf.br ^bb2(%arg2 : i32)
// CHECK-NEXT:  ^bb2(%[[A:.*]]: i32):
// CHECK-NEXT:    return %[[A]] : i32
func.func @dead_argument(%c: i1, %x: i32, %y: i32, %m: memref<i32>) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2
^bb2:
  memref.store %x, %m[] : memref<i32>
  cf.br ^bb1(%y, %x : i32, i32)
^bb1(%a: i32, %b: i32):
  return %a : i32
}

// -----

// A loop-carried argument that only feeds itself is dead.
// CHECK-LABEL: func.func @dead_loop_carried
// CHECK:         cf.br ^bb1(%{{.*}} : index)
// CHECK-NEXT:  ^bb1(%[[I:.*]]: index):
// CHECK-NOT:     arith.addi %{{.*}}, %{{.*}} : i32
// CHECK:         cf.br ^bb1(%{{.*}} : index)
func.func @dead_loop_carried(%n: index, %x: i32) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  cf.br ^bb1(%c0, %x : index, i32)
^bb1(%i: index, %acc: i32):
  %lt = arith.cmpi slt, %i, %n : index
  cf.cond_br %lt, ^bb2, ^bb3
^bb2:
  %i2 = arith.addi %i, %c1 : index
  %a2 = arith.addi %acc, %x : i32
  cf.br ^bb1(%i2, %a2 : index, i32)
^bb3:
  return
}

// -----

// A single predecessor's arguments stay, and identical blocks stay apart.
// CHECK-LABEL: func.func @single_predecessors
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i32), ^bb2(%arg2 : i32)
// CHECK-NEXT:  ^bb1(%[[A:.*]]: i32):
// CHECK-NEXT:    arith.addi %[[A]], %[[A]] : i32
// CHECK:       ^bb2(%[[B:.*]]: i32):
// CHECK-NEXT:    arith.addi %[[B]], %[[B]] : i32
func.func @single_predecessors(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%y : i32)
^bb1(%a: i32):
  %r = arith.addi %a, %a : i32
  return %r : i32
^bb2(%b: i32):
  %s = arith.addi %b, %b : i32
  return %s : i32
}

// -----

// An unknown terminator's successor operands cannot be changed: its
// successor's arguments keep their values.
// CHECK-LABEL: func.func @unknown_terminator
// CHECK:       ^bb2(%[[A:.*]]: i32, %[[B:.*]]: i32):
// CHECK-NEXT:    arith.addi %[[A]], %[[B]] : i32
func.func @unknown_terminator(%c: i1, %x: i32, %y: i32, %m: memref<i32>) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2
^bb2:
  memref.store %x, %m[] : memref<i32>
  "foo.br"(%x, %x)[^bb1] : (i32, i32) -> ()
^bb1(%a: i32, %b: i32):
  %r = arith.addi %a, %b : i32
  return %r : i32
}

// -----

// Arguments passed the same values as each other stay.
// CHECK-LABEL: func.func @twin_arguments
// CHECK:       ^bb{{[0-9]+}}(%{{.*}}: i32, %{{.*}}: i32, %{{.*}}: i32):
func.func @twin_arguments(%c: i1, %x: i32, %y: i32, %m: memref<i32>) -> i32 {
  cf.cond_br %c, ^bb1(%x, %x, %y : i32, i32, i32), ^bb2
^bb2:
  memref.store %x, %m[] : memref<i32>
  cf.br ^bb1(%y, %y, %x : i32, i32, i32)
^bb1(%a: i32, %b: i32, %d: i32):
  %r = arith.addi %a, %b : i32
  %s = arith.addi %r, %d : i32
  return %s : i32
}
