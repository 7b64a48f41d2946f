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

// A block argument is located where its name is written, unless it says
// otherwise.
// CHECK-LABEL: func.func @args
// CHECK-SAME: %arg0: i32 loc("{{.*}}debuginfo.mlir":23:17)
// CHECK-SAME: %arg1: i32 loc("bar.c":1:2)
// CHECK: ^bb1(%{{.*}}: i32 loc("{{.*}}debuginfo.mlir":26:6)):
// CHECK: ^bb2(%{{.*}}: f32 loc("baz.c":5:6)):
func.func @args(%a: i32, %b: i32 loc("bar.c":1:2)) -> i32 {
  %f = arith.constant 1.0 : f32
  cf.br ^bb1(%a : i32)
^bb1(%c: i32):
  cf.br ^bb2(%f : f32)
^bb2(%d: f32 loc("baz.c":5:6)):
  return %c : i32
}
