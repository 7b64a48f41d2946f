// RUN: mlkit-opt %s | filecheck %s
// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt < %s | filecheck %s
// RUN: mlkit-opt %s -o %t && filecheck %s --input-file=%t

// CHECK-LABEL: func.func @add
// CHECK-NEXT:    %[[S:.*]] = arith.addi %{{.*}}, %{{.*}} : i32
// CHECK-NEXT:    return %[[S]] : i32
func.func @add(%a: i32, %b: i32) -> i32 {
  %0 = arith.addi %a, %b : i32
  return %0 : i32
}
