// canonicalize{region-simplify=aggressive}: identical blocks merge and
// redundant block arguments go, as upstream's simplifyRegions does with block
// merging on. Each case's output is checked against upstream's by
// tests/test_pass_files_as_upstream.py.

// RUN: mlkit-opt %s --allow-unregistered-dialect --split-input-file -p 'builtin.module(func.func(canonicalize{region-simplify=aggressive}))' | filecheck %s

// Blocks that do the same thing merge; a cond_br to one block twice then folds.
// CHECK-LABEL: func.func @same_returns
// CHECK-NEXT:    return
// CHECK-NEXT:  }
func.func @same_returns(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  return
^bb2:
  return
}

// -----

// CHECK-LABEL: func.func @same_arguments
// CHECK-NEXT:    %[[V:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.addi %[[V]], %[[V]] : i32
// CHECK-NEXT:    return %[[R]] : i32
func.func @same_arguments(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%y : i32)
^bb1(%a: i32):
  %r = arith.addi %a, %a : i32
  return %r : i32
^bb2(%b: i32):
  %s = arith.addi %b, %b : i32
  return %s : i32
}

// -----

// Values from outside that differ become arguments of the kept block.
// CHECK-LABEL: func.func @different_values
// CHECK-NEXT:    %[[V:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:    %[[R:.*]] = arith.muli %[[V]], %[[V]] : i32
// CHECK-NEXT:    return %[[R]] : i32
func.func @different_values(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  %r = arith.muli %x, %x : i32
  return %r : i32
^bb2:
  %s = arith.muli %y, %y : i32
  return %s : i32
}

// -----

// ... unless a predecessor cannot pass them.
// CHECK-LABEL: func.func @unknown_predecessor
// CHECK:         "foo.branch"()[^bb1, ^bb2]
// CHECK:       ^bb1:
// CHECK-NEXT:    return %arg0
// CHECK:       ^bb2:
// CHECK-NEXT:    return %arg1
func.func @unknown_predecessor(%x: i32, %y: i32) -> i32 {
  "foo.branch"() [^bb1, ^bb2] : () -> ()
^bb1:
  return %x : i32
^bb2:
  return %y : i32
}

// -----

// Without new arguments any predecessor will do.
// CHECK-LABEL: func.func @unknown_predecessor_same
// CHECK:         "foo.branch"()[^bb1, ^bb1]
// CHECK-NOT:   ^bb2
func.func @unknown_predecessor_same(%x: i32) -> i32 {
  "foo.branch"() [^bb1, ^bb2] : () -> ()
^bb1:
  return %x : i32
^bb2:
  return %x : i32
}

// -----

// CHECK-LABEL: func.func @args_and_values
// CHECK-NEXT:    %[[A:.*]] = arith.select %arg0, %arg2, %arg1 : i32
// CHECK-NEXT:    %[[B:.*]] = arith.select %arg0, %arg1, %arg2 : i32
// CHECK-NEXT:    return %[[B]], %[[A]] : i32, i32
func.func @args_and_values(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  cf.cond_br %c, ^bb1(%y : i32), ^bb2(%x : i32)
^bb1(%a: i32):
  return %x, %a : i32, i32
^bb2(%b: i32):
  return %y, %b : i32, i32
}

// -----

// Arguments used in different places: no merge, and then each argument is
// the value its one predecessor passes.
// CHECK-LABEL: func.func @argument_used_differently
// CHECK-NEXT:    return %arg1, %arg2 : i32, i32
func.func @argument_used_differently(%c: i1, %x: i32, %y: i32) -> (i32, i32) {
  cf.cond_br %c, ^bb1(%y : i32), ^bb2(%x : i32)
^bb1(%a: i32):
  return %x, %a : i32, i32
^bb2(%b: i32):
  return %b, %y : i32, i32
}

// -----

// CHECK-LABEL: func.func @argument_types
// CHECK:         cf.cond_br %arg0, ^bb1, ^bb2
// CHECK:         "foo.sink"(%arg1) : (i32) -> ()
// CHECK:         "foo.sink"(%arg2) : (i16) -> ()
func.func @argument_types(%c: i1, %x: i32, %y: i16) {
  cf.cond_br %c, ^bb1(%x : i32), ^bb2(%y : i16)
^bb1(%a: i32):
  "foo.sink"(%a) : (i32) -> ()
  return
^bb2(%b: i16):
  "foo.sink"(%b) : (i16) -> ()
  return
}

// -----

// CHECK-LABEL: func.func @op_attributes
// CHECK:         cf.cond_br %arg0, ^bb1, ^bb2
// CHECK:         "foo.op"() {n = 1 : i64}
// CHECK:         "foo.op"() {n = 2 : i64}
func.func @op_attributes(%c: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  "foo.op"() {n = 1} : () -> ()
  return
^bb2:
  "foo.op"() {n = 2} : () -> ()
  return
}

// -----

// Blocks holding regions are left alone.
// CHECK-LABEL: func.func @nested_regions
// CHECK:         cf.cond_br %arg0, ^bb1, ^bb2
// CHECK-COUNT-2: scf.if %arg1
func.func @nested_regions(%c: i1, %d: i1) {
  cf.cond_br %c, ^bb1, ^bb2
^bb1:
  scf.if %d {
    "foo.op"() : () -> ()
  }
  return
^bb2:
  scf.if %d {
    "foo.op"() : () -> ()
  }
  return
}

// -----

// A loop's back edge into the kept block passes its own value.
// CHECK-LABEL: func.func @back_edges
// CHECK-NEXT:    %[[E:.*]] = "foo.op"() : () -> i1
// CHECK-NEXT:    cf.cond_br %arg0, ^bb1(%arg1 : i1), ^bb2
// CHECK-NEXT:  ^bb1(%[[C:.*]]: i1):
// CHECK-NEXT:    cf.cond_br %[[C]], ^bb1(%[[E]] : i1), ^bb2
// CHECK-NEXT:  ^bb2:
// CHECK-NEXT:    return
func.func @back_edges(%c: i1, %d: i1) {
  %e = "foo.op"() : () -> (i1)
  cf.cond_br %c, ^bb2, ^bb3
^bb1:
  cf.cond_br %e, ^bb1, ^bb3
^bb2:
  cf.cond_br %d, ^bb1, ^bb3
^bb3:
  return
}

// -----

// CHECK-LABEL: func.func @operand_types
// CHECK:         memref.store %{{.*}}, %arg1[] : memref<i32>
// CHECK:         memref.store %{{.*}}, %arg2[] : memref<i1>
func.func @operand_types(%c: i1, %m: memref<i32>, %n: memref<i1>) {
  %zero = arith.constant 0 : i32
  %true = arith.constant true
  cf.br ^bb1
^bb1:
  cf.cond_br %c, ^bb2, ^bb3
^bb2:
  memref.store %zero, %m[] : memref<i32>
  cf.br ^bb1
^bb3:
  memref.store %true, %n[] : memref<i1>
  cf.br ^bb1
}

// -----

// A result used outside its block would merge into the wrong value.
// CHECK-LABEL: func.func @result_used_outside
// CHECK:         %[[IP:.*]] = arith.addi %arg1, %{{.*}} : i32
// CHECK:         arith.addi %[[J:.*]], %{{.*}} : i32
// CHECK:         call @use(%[[J]], %[[IP]]) : (i32, i32) -> ()
func.func private @use(i32, i32)
func.func @result_used_outside(%n: i32, %i: i32) {
  %one = arith.constant 1 : i32
  %lt = arith.cmpi slt, %i, %n : i32
  cf.cond_br %lt, ^bb1, ^bb3
^bb1:
  %ip = arith.addi %i, %one : i32
  cf.br ^bb2(%ip : i32)
^bb4:
  %jp = arith.addi %j, %one : i32
  cf.br ^bb2(%jp : i32)
^bb2(%j: i32):
  %lt2 = arith.cmpi slt, %j, %n : i32
  call @use(%j, %ip) : (i32, i32) -> ()
  cf.cond_br %lt2, ^bb4, ^bb3
^bb3:
  return
}

// -----

// An argument every predecessor passes the same value for goes.
// CHECK-LABEL: func.func @redundant_argument
// CHECK-NEXT:    cf.cond_br %arg0, ^bb2(%arg2 : i32), ^bb1
// CHECK:         cf.br ^bb2(%arg1 : i32)
// CHECK-NEXT:  ^bb2(%[[B:.*]]: i32):
// CHECK-NEXT:    arith.addi %arg1, %[[B]] : i32
func.func @redundant_argument(%c: i1, %x: i32, %y: i32) -> i32 {
  cf.cond_br %c, ^bb1(%x, %y : i32, i32), ^bb2
^bb2:
  "foo.op"() : () -> ()
  cf.br ^bb1(%x, %x : i32, i32)
^bb1(%a: i32, %b: i32):
  %r = arith.addi %a, %b : i32
  return %r : i32
}

// -----

// Regions inside ops merge too.
// CHECK-LABEL: func.func @merged_in_nested_region
// CHECK-NEXT:    return %arg1 : i32
func.func @merged_in_nested_region(%c: i1, %x: i32) -> i32 {
  %r = scf.execute_region -> i32 {
    cf.cond_br %c, ^bb1, ^bb2
  ^bb1:
    scf.yield %x : i32
  ^bb2:
    scf.yield %x : i32
  }
  return %r : i32
}

// -----

// llvm's branches pass new arguments too.
// CHECK-LABEL: func.func @llvm_branches
// CHECK-NEXT:    llvm.cond_br %arg0, ^bb1(%arg1 : i32), ^bb1(%arg2 : i32)
// CHECK-NEXT:  ^bb1(%[[V:.*]]: i32):
// CHECK-NEXT:    llvm.mul %[[V]], %[[V]] : i32
func.func @llvm_branches(%c: i1, %x: i32, %y: i32) -> i32 {
  llvm.cond_br %c, ^bb1, ^bb2
^bb1:
  %a = llvm.mul %x, %x : i32
  llvm.return %a : i32
^bb2:
  %b = llvm.mul %y, %y : i32
  llvm.return %b : i32
}

// -----

// and so do switches.
// CHECK-LABEL: func.func @switch_predecessor
// CHECK:           default: ^bb1(%arg1 : i32),
// CHECK-NEXT:      0: ^bb1(%arg2 : i32)
// CHECK:       ^bb1(%[[V:.*]]: i32):
// CHECK-NEXT:    "foo.op"(%[[V]]) : (i32) -> ()
func.func @switch_predecessor(%f: i32, %x: i32, %y: i32) -> i32 {
  cf.switch %f : i32, [
    default: ^bb1,
    0: ^bb2
  ]
^bb1:
  "foo.op"(%x) : (i32) -> ()
  return %x : i32
^bb2:
  "foo.op"(%y) : (i32) -> ()
  return %y : i32
}
