// RUN: not mlkit-opt %S/Inputs/missing-and-unexpected.mlir --verify-diagnostics --split-input-file 2>&1 | filecheck %s
// RUN: not mlkit-opt %S/Inputs/wrong-severity.mlir --load-plugin=%S/../Plugins/Inputs/toy_plugin.py -toy-report --verify-diagnostics 2>&1 | filecheck %s --check-prefix=SEVERITY

// CHECK: missing-and-unexpected.mlir:5:3: error: unexpected error: 'func.return' op
// CHECK: missing-and-unexpected.mlir:11:6: error: expected error "this is never emitted" was not produced
// CHECK-NOT: error:

// SEVERITY: wrong-severity.mlir:1:4: error: 'remark' diagnostic emitted when expecting a 'warning'
