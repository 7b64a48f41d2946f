// Flags upstream RUN lines carry: accepted, and --verify-roundtrip checks the
// input; with --split-input-file a failing chunk leaves the others' output.

// RUN: mlkit-opt %S/Inputs/one-function.mlir --mlir-print-local-scope --mlir-disable-threading -debug-only=greedy-rewriter --debug --verify-roundtrip | filecheck %s
// RUN: not mlkit-opt %s --split-input-file 2>%t.err | filecheck %s --check-prefix=SPLIT
// RUN: filecheck %s --check-prefix=ERR < %t.err

// CHECK: func.func @f(%arg0: i32) -> i32
// SPLIT: func.func @first
// SPLIT-NEXT: return
// SPLIT: // -----
// SPLIT-NEXT: // -----
// SPLIT-NEXT: module {
// SPLIT-NEXT: func.func @third
func.func @first() {
  return
}

// -----

// ERR: error: 'func.return' op has 1 operands, but enclosing function (@second) returns 0
func.func @second() {
  %c = arith.constant 0 : i32
  "func.return"(%c) : (i32) -> ()
}

// -----

func.func @third() {
  return
}

// RUN: mlkit-opt %S/Inputs/constants.mlir --mlir-elide-elementsattrs-if-larger=2 | filecheck %s --check-prefix=ELIDE
// ELIDE: arith.constant dense_resource<__elided__> : tensor<4xf32>
// ELIDE: arith.constant dense<[1, 2]> : tensor<2xi32>
// ELIDE: arith.constant dense<1.000000e+00> : tensor<8xf32>
// RUN: not mlkit-opt %S/Inputs/constants.mlir --mlir-elide-elementsattrs-if-larger=-1 2>&1 | filecheck %s --check-prefix=BAD
// BAD: for the --mlir-elide-elementsattrs-if-larger option: '-1' value invalid for uint argument!
