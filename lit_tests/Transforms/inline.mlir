// RUN: mlkit-opt %s -split-input-file -inline | filecheck %s
// RUN: not mlkit-opt %s -p 'builtin.module(inline{default-pipeline=bogus})' -o /dev/null 2>&1 | filecheck %s --check-prefix=ERR
// RUN: not mlkit-opt %s -p 'builtin.module(inline{op-pipelines=canonicalize})' -o /dev/null 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: not mlkit-opt %s -p 'builtin.module(inline{inlining-threshold=-1})' -o /dev/null 2>&1 | filecheck %s --check-prefix=UINT

// ERR: error: invalid options for pass 'inline': 'bogus' does not refer to a registered pass or pass pipeline
// ANCHOR: error: invalid options for pass 'inline': expected pass pipeline to be wrapped with the anchor operation type, e.g. 'builtin.module(...)'
// UINT: error: invalid options for pass 'inline': for the --inlining-threshold option: '-1' value invalid for uint argument!

// A single-block callee is spliced in; the now unused private callee goes,
// a public one stays.
// CHECK-NOT:   func.func private @add
// CHECK-LABEL: func.func @pub
// CHECK-LABEL: func.func @single
// CHECK-SAME:  (%[[A:.*]]: i32)
// CHECK-NEXT:  %[[S:.*]] = arith.addi %[[A]], %[[A]] : i32
// CHECK-NEXT:  %[[M:.*]] = arith.muli %[[S]], %[[S]] : i32
// CHECK-NEXT:  return %[[M]] : i32
func.func private @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
func.func @pub(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func @single(%a: i32) -> i32 {
  %0 = call @add(%a, %a) : (i32, i32) -> i32
  %1 = call @pub(%0) : (i32) -> i32
  return %1 : i32
}

// -----

// A multi-block callee becomes a CFG; its returns branch to the continuation.
// CHECK-LABEL: func.func @multi
// CHECK-SAME:  (%[[C:.*]]: i1, %[[A:.*]]: i32)
// CHECK-NEXT:  cf.cond_br %[[C]], ^[[CONT:.*]](%[[A]] : i32), ^[[ELSE:.*]]
// CHECK-NEXT: ^[[ELSE]]:
// CHECK-NEXT:  %[[X:.*]] = arith.addi %[[A]], %[[A]] : i32
// CHECK-NEXT:  cf.br ^[[CONT]](%[[X]] : i32)
// CHECK-NEXT: ^[[CONT]](%[[R:.*]]: i32):
// CHECK-NEXT:  return %[[R]] : i32
func.func private @sel(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %x = arith.addi %a, %a : i32
  return %x : i32
}
func.func @multi(%c: i1, %a: i32) -> i32 {
  %0 = call @sel(%c, %a) : (i1, i32) -> i32
  return %0 : i32
}

// -----

// Recursive callees, declarations, and multi-block callees called from a
// single-block region are left alone.
// CHECK-LABEL: func.func private @rec
// CHECK:       call @rec
// CHECK-LABEL: func.func private @ext
// CHECK-LABEL: func.func private @two_blocks
// CHECK-LABEL: func.func @keep
// CHECK:       call @rec
// CHECK:       call @ext
// CHECK:       scf.if
// CHECK-NEXT:    call @two_blocks
func.func private @rec(%a: i32) -> i32 {
  %0 = call @rec(%a) : (i32) -> i32
  return %0 : i32
}
func.func private @ext(i32) -> i32
func.func private @two_blocks(%c: i1, %a: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return %a : i32
^bb2:
  %x = arith.addi %a, %a : i32
  return %x : i32
}
func.func @keep(%a: i32, %c: i1, %m: memref<i32>) -> i32 {
  %0 = call @rec(%a) : (i32) -> i32
  %1 = call @ext(%0) : (i32) -> i32
  scf.if %c {
    %2 = func.call @two_blocks(%c, %1) : (i1, i32) -> i32
    memref.store %2, %m[] : memref<i32>
  }
  return %1 : i32
}
