// RUN: not mlkit-opt %s 2>&1 | filecheck %s --strict-whitespace

// The error line is followed by the source line and a caret under the column.
// CHECK: caret.mlir:9:8: error: Dialect `test' not found for custom op 'test.nope'
// CHECK-NEXT: {{^}}  %0 = test.nope
// CHECK-NEXT: {{^}}       ^
// CHECK-NOT: Traceback
func.func @f() {
  %0 = test.nope
  return
}
