// RUN: mlkit-opt --help | filecheck %s --check-prefix=HELP
// RUN: mlkit-opt -h | filecheck %s --check-prefix=HELP
// RUN: mlkit-opt --list-passes | filecheck %s --check-prefix=LIST
// RUN: mlkit-opt --show-dialects | filecheck %s --check-prefix=DIALECTS
// RUN: mlkit-opt --version | filecheck %s --check-prefix=VERSION

// HELP: USAGE: mlkit-opt [options] <input file>
// HELP: --pass-pipeline=<value>
// HELP: --split-input-file
// HELP: --verify-diagnostics
// HELP: Passes:
// HELP: --canonicalize {{ *}} - Canonicalize operations
// HELP: --cse {{ *}} - Eliminate common sub-expressions

// LIST: Passes:
// LIST: {{^}}  cse
// LIST-NEXT: Eliminate common sub-expressions

// DIALECTS: Available Dialects:
// DIALECTS-SAME: affine, arith, bufferization, builtin, cf, func, gpu, index, linalg, llvm,
// DIALECTS-SAME: math, memref,
// DIALECTS-SAME: scf, tensor, transform, ub, vector

// VERSION: mlkit version
