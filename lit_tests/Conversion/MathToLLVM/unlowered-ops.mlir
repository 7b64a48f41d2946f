// RUN: mlkit-opt %s -convert-math-to-llvm | filecheck %s

// Ops convert-math-to-llvm leaves as they are: erfc, clampf, isinf and
// isnormal have no LLVM intrinsic, and upstream leaves them too. isnan and
// isfinite become llvm.intr.is.fpclass, sincos llvm.intr.sincos.
// CHECK-LABEL: func.func @left_alone
// CHECK-SAME: (%[[X:.*]]: f32, %[[V:.*]]: vector<4xf64>)
func.func @left_alone(%x: f32, %v: vector<4xf64>) -> (f32, f32, i1, vector<4xi1>, i1, i1, f32, f32) {
  // CHECK: math.erfc %[[X]] fastmath<fast> : f32
  %0 = math.erfc %x fastmath<fast> : f32
  // CHECK: math.clampf %[[X]] to [%[[X]], %[[X]]] : f32
  %1 = math.clampf %x to [%x, %x] : f32
  // CHECK: math.isinf %[[X]] : f32
  %2 = math.isinf %x : f32
  // CHECK: math.isnormal %[[V]] : vector<4xf64>
  %3 = math.isnormal %v : vector<4xf64>
  // CHECK: "llvm.intr.is.fpclass"(%[[X]]) <{bit = 3 : i32}> : (f32) -> i1
  %4 = math.isnan %x : f32
  // CHECK: "llvm.intr.is.fpclass"(%[[X]]) <{bit = 504 : i32}> : (f32) -> i1
  %5 = math.isfinite %x : f32
  // CHECK: %[[SC:.*]] = llvm.intr.sincos(%[[X]]) : (f32) -> !llvm.struct<(f32, f32)>
  // CHECK-NEXT: llvm.extractvalue %[[SC]][0] : !llvm.struct<(f32, f32)>
  // CHECK-NEXT: llvm.extractvalue %[[SC]][1] : !llvm.struct<(f32, f32)>
  %s, %c = math.sincos %x : f32
  // CHECK: llvm.intr.sin
  %6 = math.sin %x : f32
  return %0, %1, %2, %3, %4, %5, %s, %6 : f32, f32, i1, vector<4xi1>, i1, i1, f32, f32
}

// An index operand is converted to the index integer, not unrolled as a vector.
// CHECK-LABEL: func.func @index_operand
// CHECK: %[[I:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
// CHECK-NEXT: llvm.intr.ctpop(%[[I]]) : (i64) -> i64
func.func @index_operand(%x: index) -> index {
  %0 = math.ctpop %x : index
  return %0 : index
}
