// RUN: mlkit-opt %s -split-input-file -reconcile-unrealized-casts | FileCheck %s

// CHECK-LABEL: func.func @chains
// CHECK-SAME: (%[[A:.*]]: i64)
// CHECK-NEXT: %[[ADD:.*]] = llvm.add %[[A]], %[[A]] : i64
// CHECK-NEXT: llvm.return %[[ADD]] : i64
func.func @chains(%a: i64) -> i64 {
  %0 = builtin.unrealized_conversion_cast %a : i64 to index
  %1 = builtin.unrealized_conversion_cast %0 : index to i64
  %2 = llvm.add %1, %1 : i64
  %3 = builtin.unrealized_conversion_cast %2 : i64 to index
  %4 = builtin.unrealized_conversion_cast %3 : index to i64
  llvm.return %4 : i64
}

// -----

// Casts that do not cancel out stay.
// CHECK-LABEL: func.func @live
// CHECK: %[[C:.*]] = builtin.unrealized_conversion_cast %{{.*}} : i64 to index
// CHECK-NEXT: return %[[C]] : index
func.func @live(%a: i64) -> index {
  %0 = builtin.unrealized_conversion_cast %a : i64 to index
  %1 = builtin.unrealized_conversion_cast %0 : index to i32
  return %0 : index
}
