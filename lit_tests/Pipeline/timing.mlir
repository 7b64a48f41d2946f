// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize)' --mlir-timing 2>&1 >/dev/null | filecheck %s

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
