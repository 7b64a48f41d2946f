// RUN: mlkit-opt %s --split-input-file | filecheck %s
// RUN: mlkit-opt %s -split-input-file -cse | filecheck %s

// CHECK-LABEL: func.func @first
// CHECK: // -----
// CHECK-LABEL: func.func @second
// CHECK: // -----
// CHECK-LABEL: func.func @first
func.func @first() {
  return
}

// -----

func.func @second() {
  return
}

// -----

// The same symbol again: chunks are separate modules.
func.func @first() {
  return
}
