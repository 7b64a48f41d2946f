// RUN: mlkit-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: not mlkit-opt %s 2>&1 | filecheck %s --check-prefix=ERR

// CHECK: "foo.bar"() {attr = 1 : i64} : () -> ()
// ERR: unregistered.mlir:[[# @LINE + 1]]:1: error: Operation foo.bar is not registered
"foo.bar"() {attr = 1} : () -> ()
