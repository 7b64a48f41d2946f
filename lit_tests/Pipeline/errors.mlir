// Pipeline errors are one clear located line each, and exit code 1.
// RUN: not mlkit-opt %s -p 'builtin.module(nonexistent)' 2>&1 | filecheck %s --check-prefix=UNKNOWN
// RUN: not mlkit-opt %s -p 'builtin.module(func.func(cse)' 2>&1 | filecheck %s --check-prefix=UNBALANCED
// RUN: not mlkit-opt %s -p 'builtin.module(cse))' 2>&1 | filecheck %s --check-prefix=EXTRA
// RUN: not mlkit-opt %s -p 'builtin.module(cse{no-such-option=1})' 2>&1 | filecheck %s --check-prefix=OPTION
// RUN: not mlkit-opt %s -p 'builtin.module(cse{x' 2>&1 | filecheck %s --check-prefix=BRACE
// RUN: not mlkit-opt %s -p 'builtin.module(cse,,canonicalize)' 2>&1 | filecheck %s --check-prefix=EMPTY
// RUN: not mlkit-opt %s -p 'func.func(cse)' 2>&1 | filecheck %s --check-prefix=ANCHOR
// RUN: mlkit-opt %s -p 'builtin.module(foo.bar(cse))' | filecheck %s --check-prefix=NOMATCH
// RUN: not mlkit-opt %s -nonexistent-pass 2>&1 | filecheck %s --check-prefix=FLAG

// UNKNOWN: <pass-pipeline>:1:16: error: 'nonexistent' does not refer to a registered pass or pass pipeline
// UNKNOWN-NEXT: builtin.module(nonexistent)
// UNKNOWN-NEXT: {{^}}               ^
// UNBALANCED: error: encountered unbalanced parentheses while parsing pipeline
// EXTRA: error: encountered extra closing ')' creating unbalanced parentheses while parsing pipeline
// OPTION: error: pass 'cse' has no option 'no-such-option'
// BRACE: error: missing closing '}' while processing pass options
// EMPTY: error: empty element in pass pipeline
// ANCHOR: errors.mlir:1:1: error: can't run 'func.func' pass manager on 'builtin.module' op
// A nested anchor that matches no op is not an error, as upstream.
// NOMATCH: func.func @f
// FLAG: Unknown command line argument '-nonexistent-pass'
func.func @f() {
  return
}
