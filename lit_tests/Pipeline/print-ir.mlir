// RUN: mlkit-opt %s -cse -canonicalize --mlir-print-ir-after-all 2>&1 >/dev/null | filecheck %s --check-prefix=AFTER
// RUN: mlkit-opt %s -cse -canonicalize --mlir-print-ir-before-all 2>&1 >/dev/null | filecheck %s --check-prefix=BEFORE
// RUN: mlkit-opt %s -cse -canonicalize --mlir-print-ir-after=canonicalize 2>&1 >/dev/null | filecheck %s --check-prefix=ONE
// RUN: mlkit-opt %s -cse -canonicalize -cse --mlir-print-ir-after-change 2>&1 >/dev/null | filecheck %s --check-prefix=CHANGE
// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse))' --mlir-print-ir-after-all --mlir-print-ir-module-scope 2>&1 >/dev/null | filecheck %s --check-prefix=SCOPE
// RUN: not mlkit-opt %s --mlir-print-ir-after=nope 2>&1 | filecheck %s --check-prefix=BADNAME

// AFTER: // -----// IR Dump After CSE (cse) //----- //
// AFTER-NEXT: module {
// AFTER: // -----// IR Dump After Canonicalizer (canonicalize) //----- //

// BEFORE: // -----// IR Dump Before CSE (cse) //----- //
// BEFORE: arith.constant 7
// BEFORE-NEXT: arith.constant 7
// BEFORE: // -----// IR Dump Before Canonicalizer (canonicalize) //----- //

// ONE-NOT: IR Dump After CSE
// ONE: // -----// IR Dump After Canonicalizer (canonicalize) //----- //
// ONE-NOT: IR Dump

// CSE changes the IR and canonicalize does too; the second CSE changes nothing.
// CHANGE: IR Dump After CSE (cse)
// CHANGE: IR Dump After Canonicalizer (canonicalize)
// CHANGE-NOT: IR Dump After CSE

// SCOPE: // -----// IR Dump After CSE (cse) ('func.func' operation: @f) //----- //
// SCOPE-NEXT: module {

// BADNAME: error: --mlir-print-ir-after: 'nope' is not a registered pass
func.func @f() -> i32 {
  %0 = arith.constant 7 : i32
  %1 = arith.constant 7 : i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}
