// A plugin's dialect verifies, and its passes' failures are located.
// RUN: mlkit-opt %s --load-plugin=%S/Inputs/toy_plugin.py --verify-diagnostics --split-input-file
// RUN: not mlkit-opt %S/Inputs/positive.mlir --load-plugin=%S/Inputs/toy_plugin.py -toy-break 2>&1 | filecheck %s --check-prefix=BREAK
// RUN: mlkit-opt %S/Inputs/positive.mlir --load-plugin=%S/Inputs/toy_plugin.py -toy-break --verify-each=false | filecheck %s --check-prefix=NOVERIFY
// RUN: not mlkit-opt %S/Inputs/positive.mlir --load-plugin=%S/Inputs/toy_plugin.py -toy-fail 2>&1 | filecheck %s --check-prefix=FAIL
// RUN: not mlkit-opt %S/Inputs/positive.mlir --load-plugin=%S/Inputs/toy_plugin.py -toy-crash 2>&1 | filecheck %s --check-prefix=CRASH
// RUN: not mlkit-opt %S/Inputs/positive.mlir --load-plugin=%S/Inputs/toy_plugin.py -p 'builtin.module(toy-break,toy-crash)' --verify-each=false 2>&1 | filecheck %s --check-prefix=UNVERIFIED
// RUN: env MLKIT_TRACEBACK=1 not mlkit-opt %S/Inputs/positive.mlir --load-plugin=%S/Inputs/toy_plugin.py -toy-crash 2>&1 | filecheck %s --check-prefix=TRACE

// BREAK: positive.mlir:1:1: error: 'toy.const' op value must be non-negative
// BREAK: note: the IR failed to verify after pass 'toy-break'
// NOVERIFY: toy.const -1
// FAIL: positive.mlir:1:1: error: toy-fail refuses this constant
// CRASH: mlkit-opt: internal error: pass 'toy-crash' crashed: KeyError: 'oops'
// CRASH-NOT: Traceback
// TRACE: Traceback (most recent call last)
// UNVERIFIED: positive.mlir:1:1: error: 'toy.const' op value must be non-negative
// UNVERIFIED: note: pass 'toy-crash' failed on IR that does not verify (the passes were run without --verify-each)
// UNVERIFIED-NOT: internal error

// expected-error @+1 {{'toy.const' op value must be non-negative}}
%0 = toy.const -4

// -----

// expected-error @+1 {{custom op 'toy.const' expected integer value}}
%0 = toy.const "seven"
