// RUN: mlkit-opt %s -split-input-file -convert-math-to-libm | filecheck %s

// math.erfc calls libm's erfcf for f32 and erfc for f64; its fastmath flags
// are dropped.
// CHECK-DAG: func.func private @erfcf(f32) -> f32 attributes {llvm.readnone}
// CHECK-DAG: func.func private @erfc(f64) -> f64 attributes {llvm.readnone}
// CHECK-LABEL: func.func @scalars
// CHECK-SAME: (%[[A:.*]]: f32, %[[D:.*]]: f64)
func.func @scalars(%a: f32, %d: f64) -> (f32, f64) {
  // CHECK: %[[R:.*]] = {{(func\.)?}}call @erfcf(%[[A]]) : (f32) -> f32
  %0 = math.erfc %a fastmath<fast> : f32
  // CHECK: %[[S:.*]] = {{(func\.)?}}call @erfc(%[[D]]) : (f64) -> f64
  %1 = math.erfc %d : f64
  // CHECK: return %[[R]], %[[S]]
  return %0, %1 : f32, f64
}

// -----

// Narrow floats go through f32; vectors are unrolled into calls.
// CHECK-LABEL: func.func @narrow_and_vector
func.func @narrow_and_vector(%h: bf16, %v: vector<2xf64>) -> (bf16, vector<2xf64>) {
  // CHECK: %[[W:.*]] = arith.extf %{{.*}} : bf16 to f32
  // CHECK-NEXT: %[[C:.*]] = {{(func\.)?}}call @erfcf(%[[W]]) : (f32) -> f32
  // CHECK-NEXT: arith.truncf %[[C]] : f32 to bf16
  %0 = math.erfc %h : bf16
  // CHECK: vector.extract %{{.*}}[0] : f64 from vector<2xf64>
  // CHECK-NEXT: {{(func\.)?}}call @erfc(
  // CHECK-NEXT: vector.insert
  // CHECK-NEXT: vector.extract %{{.*}}[1] : f64 from vector<2xf64>
  // CHECK-NEXT: {{(func\.)?}}call @erfc(
  // CHECK-NEXT: vector.insert
  // CHECK-NOT: math.erfc
  %1 = math.erfc %v : vector<2xf64>
  return %0, %1 : bf16, vector<2xf64>
}
