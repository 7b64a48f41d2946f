// RUN: mlkit-opt %s -split-input-file -symbol-dce | filecheck %s
// RUN: not mlkit-opt %s -p 'builtin.module(func.func(symbol-dce))' -o /dev/null 2>&1 | filecheck %s --check-prefix=ERR

// Run on a function, which is not a symbol table, the pass fails.
// ERR: symbol-dce.mlir:[[# @LINE + 11]]:1: error: 'func.func' op was scheduled to run under SymbolDCE, but does not define a symbol table

// Unreferenced private and nested symbols go; public ones and everything a
// live op references (transitively) stay.
// CHECK-LABEL: func.func @pub_unused
// CHECK-NOT:   @priv_dead
// CHECK-NOT:   @chain
// CHECK:       func.func private @priv_live
// CHECK:       func.func @pub
// CHECK-NOT:   @nest_fn
// CHECK-NOT:   @chain
func.func @pub_unused() { return }
func.func private @priv_dead() { return }
func.func private @chain_a() {
  call @chain_b() : () -> ()
  return
}
func.func private @chain_b() { return }
func.func private @priv_live() { return }
func.func @pub() {
  call @priv_live() : () -> ()
  return
}
func.func nested @nest_fn() { return }

// -----

// A private module hides its public contents; a public one keeps them.
// CHECK-NOT:   @hidden
// CHECK:       module @shown
// CHECK-NEXT:    func.func @shown_pub
// CHECK-NEXT:      return
// CHECK-NEXT:    }
// CHECK-NEXT:  }
module @hidden attributes {sym_visibility = "private"} {
  func.func @hidden_pub() { return }
}
module @shown {
  func.func @shown_pub() { return }
  func.func private @shown_priv() { return }
}

// -----

// A nested reference keeps every symbol on its path.
// CHECK:       module @lib
// CHECK-NEXT:    func.func nested @used
// CHECK-NOT:     @unused
module @lib attributes {sym_visibility = "private"} {
  func.func nested @used() { return }
  func.func nested @unused() { return }
}
func.func @main() attributes {ref = @lib::@used} { return }

