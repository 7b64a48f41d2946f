// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize)' --mlir-timing 2>&1 >/dev/null | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize)' --mlir-timing --mlir-timing-display=tree 2>&1 >/dev/null | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize,func.func(cse))' --mlir-timing --mlir-timing-display=list 2>&1 >/dev/null | filecheck %s --check-prefix=LIST
// RUN: not mlkit-opt %s --mlir-timing-display=flat 2>&1 | filecheck %s --check-prefix=BAD

// The list display merges the timers of one name (both CSE runs, both
// pipelines) and indents nothing.
// LIST: ----Wall Time----  ----Name----
// LIST-NOT: {{^  [ 0-9.]+\([ 0-9.]+%\)    }}
// LIST: {{^  [ 0-9.]+\([ 0-9.]+%\)  CSE$}}
// LIST-NOT: CSE
// LIST-NOT: {{^  [ 0-9.]+\([ 0-9.]+%\)    }}
// LIST: (100.0%)  Total
// BAD: for the --mlir-timing-display option: Cannot find option named 'flat'!

// CHECK: ... Execution time report ...
// CHECK: Total Execution Time: {{[0-9.]+}} seconds
// CHECK: ----Wall Time----  ----Name----
// CHECK: Parser
// CHECK: 'func.func' Pipeline
// CHECK-NEXT: CSE
// CHECK-NEXT: Canonicalizer
// CHECK: Output
// CHECK: (100.0%)  Total
func.func @f() {
  return
}
