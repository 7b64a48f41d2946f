// RUN: mlkit-translate --mlir-to-llvmir --split-input-file %s | filecheck %s
// RUN: mlkit-opt %s --split-input-file --emit=llvm | filecheck %s

// Blocks keep their order; block arguments become phis with one entry per
// incoming edge; branch weights become !prof metadata.

// CHECK-LABEL: define i64 @loop(i64 %0)
// CHECK-NEXT: br label %[[HEADER:[0-9]+]]
// CHECK: [[HEADER]]:
// CHECK-NEXT: %[[I:[0-9]+]] = phi i64 [ %[[NEXT:[0-9]+]], %[[BODY:[0-9]+]] ], [ 0, %1 ]
// CHECK-NEXT: %[[ACC:[0-9]+]] = phi i64 [ %[[SUM:[0-9]+]], %[[BODY]] ], [ 1, %1 ]
// CHECK-NEXT: %[[CMP:[0-9]+]] = icmp slt i64 %[[I]], %0
// CHECK-NEXT: br i1 %[[CMP]], label %[[BODY]], label %[[EXIT:[0-9]+]], !prof ![[WEIGHTS:[0-9]+]]
// CHECK: [[BODY]]:
// CHECK-NEXT: %[[SUM]] = mul i64 %[[ACC]], 2
// CHECK-NEXT: %[[NEXT]] = add i64 %[[I]], 1
// CHECK-NEXT: br label %[[HEADER]]
// CHECK: [[EXIT]]:
// CHECK-NEXT: ret i64 %[[ACC]]
// CHECK: ![[WEIGHTS]] = !{!"branch_weights", i32 30, i32 1}
llvm.func @loop(%n: i64) -> i64 {
  %c0 = llvm.mlir.constant(0 : i64) : i64
  %c1 = llvm.mlir.constant(1 : i64) : i64
  %c2 = llvm.mlir.constant(2 : i64) : i64
  llvm.br ^header(%c0, %c1 : i64, i64)
^header(%i: i64, %acc: i64):
  %cmp = llvm.icmp "slt" %i, %n : i64
  llvm.cond_br %cmp weights([30, 1]), ^body, ^exit
^body:
  %sum = llvm.mul %acc, %c2 : i64
  %next = llvm.add %i, %c1 : i64
  llvm.br ^header(%next, %sum : i64, i64)
^exit:
  llvm.return %acc : i64
}

// -----

// CHECK-LABEL: define i32 @switch(i32 %0)
// CHECK-NEXT: switch i32 %0, label %[[DEFAULT:[0-9]+]] [
// CHECK-NEXT: i32 -1, label %[[NEG:[0-9]+]]
// CHECK-NEXT: i32 7, label %[[FWD:[0-9]+]]
// CHECK-NEXT: i32 9, label %[[OTHER:[0-9]+]]
// CHECK-NEXT: ], !prof ![[WEIGHTS:[0-9]+]]
// CHECK: [[DEFAULT]]:
// CHECK-NEXT: %{{[0-9]+}} = phi i32 [ %0, %1 ]
// CHECK: [[NEG]]:
// CHECK-NEXT: %{{[0-9]+}} = phi i32 [ %[[SEVEN:[0-9]+]], %[[FWD]] ], [ -1, %1 ]
// CHECK: [[OTHER]]:
// CHECK-NEXT: unreachable
// CHECK: [[FWD]]:
// CHECK-NEXT: %[[SEVEN]] = phi i32 [ 7, %1 ]
// CHECK-NEXT: br label %[[NEG]]
// CHECK: ![[WEIGHTS]] = !{!"branch_weights", i32 1, i32 2, i32 3, i32 4}
llvm.func @switch(%v: i32) -> i32 {
  %a = llvm.mlir.constant(-1 : i32) : i32
  %b = llvm.mlir.constant(7 : i32) : i32
  llvm.switch %v : i32, ^default(%v : i32) [
    -1: ^neg(%a : i32),
    7: ^neg(%b : i32),
    9: ^other
  ] {branch_weights = array<i32: 1, 2, 3, 4>}
^default(%d: i32):
  llvm.return %d : i32
^neg(%x: i32):
  llvm.return %x : i32
^other:
  llvm.unreachable
}

// -----

// A terminator that reaches one block twice with different arguments gets a
// forwarding block for the second edge (after the function's blocks), since a
// phi has one entry per predecessor.
// CHECK-LABEL: define i32 @same_dest(i1 %0, i32 %1, i32 %2)
// CHECK-NEXT: br i1 %0, label %[[DEST:[0-9]+]], label %[[FWD:[0-9]+]]
// CHECK: [[DEST]]:
// CHECK-NEXT: %[[V:[0-9]+]] = phi i32 [ %[[B:[0-9]+]], %[[FWD]] ], [ %1, %3 ]
// CHECK-NEXT: ret i32 %[[V]]
// CHECK: [[FWD]]:
// CHECK-NEXT: %[[B]] = phi i32 [ %2, %3 ]
// CHECK-NEXT: br label %[[DEST]]
llvm.func @same_dest(%c: i1, %a: i32, %b: i32) -> i32 {
  llvm.cond_br %c, ^bb1(%a : i32), ^bb1(%b : i32)
^bb1(%x: i32):
  llvm.return %x : i32
}

// -----

// A block without predecessors gets poison for its arguments.
// CHECK-LABEL: define i32 @unreachable_block(i32 %0)
// CHECK-NEXT: ret i32 %0
// CHECK: {{^}}[[DEAD:[0-9]+]]:
// CHECK-NEXT: ret i32 poison
llvm.func @unreachable_block(%a: i32) -> i32 {
  llvm.return %a : i32
^dead(%x: i32):
  llvm.return %x : i32
}
