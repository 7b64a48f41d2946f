// RUN: mlkit-opt %s --allow-unregistered-dialect | filecheck %s
// RUN: not mlkit-opt %s 2>&1 | filecheck %s --check-prefix=ERR

// CHECK: "foo.bar"() {attr = 1 : i64} : () -> ()
// ERR: unregistered.mlir:[[# @LINE + 1]]:1: error: operation being parsed with an unregistered dialect. If this is intended, please use -allow-unregistered-dialect with the MLIR tool used
"foo.bar"() {attr = 1} : () -> ()
