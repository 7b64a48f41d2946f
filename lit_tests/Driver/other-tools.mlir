// The runner and the translator are installed and say clearly what they do not do yet.
// RUN: not mlkit-run %s 2>&1 | filecheck %s --check-prefix=RUNNER
// RUN: not mlkit-translate %s 2>&1 | filecheck %s --check-prefix=TRANSLATE

// RUNNER: mlkit-run: the JIT runner is not available in this version of mlkit yet
// TRANSLATE: mlkit-translate: translation to LLVM IR is not available in this version of mlkit yet
