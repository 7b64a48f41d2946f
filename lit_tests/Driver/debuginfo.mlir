// RUN: mlkit-opt %s --mlir-print-debuginfo | filecheck %s

// Each op carries the file:line:col where it starts.
// CHECK: arith.constant 1 : i32 loc("{{.*}}debuginfo.mlir":9:3)
// CHECK: return loc("{{.*}}debuginfo.mlir":10:3)
// CHECK: loc("{{.*}}debuginfo.mlir":8:1)
// CHECK: loc("foo.c":3:4)
func.func @f() {
  %0 = arith.constant 1 : i32
  return
}
func.func @g() {
  return loc("foo.c":3:4)
}
