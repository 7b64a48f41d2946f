// RUN: not mlkit-opt %s --split-input-file 2>&1 >/dev/null | filecheck %s
// RUN: not mlkit-opt %s --split-input-file -o %t.out
// RUN: not test -e %t.out

// Errors are reported with the line numbers of the original file, and later
// chunks are still processed.
// CHECK: split-input-file-errors.mlir:13:8: error: custom op 'arith.bogus' is unknown
// CHECK-NEXT: {{^}}  %0 = arith.bogus
// CHECK-NEXT: {{^}}       ^
// CHECK: split-input-file-errors.mlir:19:3: error: 'func.return' op
// CHECK-NOT: error
func.func @a() {
  %0 = arith.bogus
}

// -----

func.func @b() -> i32 {
  return
}

// -----

func.func @c() {
  return
}
