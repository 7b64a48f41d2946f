// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize,symbol-dce)' --mlir-pass-statistics 2>&1 >/dev/null | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(func.func(cse),canonicalize,func.func(cse))' --mlir-pass-statistics --mlir-pass-statistics-display=list 2>&1 >/dev/null | filecheck %s --check-prefix=LIST
// RUN: not mlkit-opt %s --mlir-pass-statistics-display=tree 2>&1 | filecheck %s --check-prefix=BAD

// Each pass in pipeline order, with what it counted: CSE folds one addi into
// the other and drops the unused muli; symbol-dce erases the private @unused.
// CHECK: ... Pass statistics report ...
// CHECK: 'func.func' Pipeline
// CHECK-NEXT:   CSE
// CHECK-NEXT:     (S) 1 num-cse'd - Number of operations CSE'd
// CHECK-NEXT:     (S) 1 num-dce'd - Number of operations DCE'd
// CHECK-NEXT: Canonicalizer
// CHECK-NEXT: SymbolDCE
// CHECK-NEXT:   (S) 1 num-dce'd - Number of symbols DCE'd

// The list display merges both CSE runs (the second finds nothing more).
// LIST: ... Pass statistics report ...
// LIST:      {{^  CSE$}}
// LIST-NEXT: (S) 1 num-cse'd - Number of operations CSE'd
// LIST-NEXT: (S) 1 num-dce'd - Number of operations DCE'd
// LIST-NEXT: {{^  Canonicalizer$}}
// BAD: for the --mlir-pass-statistics-display option: Cannot find option named 'tree'!

func.func @f(%a: i32) -> i32 {
  %b = arith.addi %a, %a : i32
  %c = arith.addi %a, %a : i32
  %d = arith.muli %a, %a : i32
  %e = arith.addi %b, %c : i32
  return %e : i32
}

func.func private @unused() {
  return
}
