// RUN: mlkit-opt %s -split-input-file -convert-to-llvm -reconcile-unrealized-casts | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -convert-to-llvm="allow-pattern-rollback=false dynamic" -reconcile-unrealized-casts | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -convert-to-llvm=filter-dialects=func | FileCheck %s --check-prefix=FUNC

// CHECK-LABEL: llvm.func @loop(
// CHECK-SAME: %{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: !llvm.ptr, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %{{[^:]*}}: i64, %[[N:[^:]*]]: i64) -> f32
// CHECK: llvm.br ^bb1(%{{.*}}, %{{.*}} : i64, f32)
// CHECK: ^bb1(%[[I:[^:]*]]: i64, %[[ACC:[^:]*]]: f32):
// CHECK: llvm.icmp "slt" %[[I]], %[[N]] : i64
// CHECK: llvm.load %{{.*}} : !llvm.ptr -> f32
// CHECK: llvm.fadd %[[ACC]], %{{.*}} : f32
// CHECK: llvm.return %[[ACC]] : f32
// CHECK-NOT: builtin.unrealized_conversion_cast
// FUNC-LABEL: llvm.func @loop
// FUNC: arith.constant 0 : index
// FUNC: cf.br
func.func @loop(%m: memref<?xf32>, %n: index) -> f32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %zero = arith.constant 0.0 : f32
  cf.br ^bb1(%c0, %zero : index, f32)
^bb1(%i: index, %acc: f32):
  %cond = arith.cmpi slt, %i, %n : index
  cf.cond_br %cond, ^bb2, ^bb3
^bb2:
  %x = memref.load %m[%i] : memref<?xf32>
  %s = arith.addf %acc, %x : f32
  %next = arith.addi %i, %c1 : index
  cf.br ^bb1(%next, %s : index, f32)
^bb3:
  return %acc : f32
}
