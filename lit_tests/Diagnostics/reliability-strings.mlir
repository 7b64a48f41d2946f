// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Unterminated strings and bad escapes are reported where upstream's lexer
// reports them, instead of backtracking for ever.

// expected-error @+1 {{expected '"' in string literal}}
func.func @f() attributes {note = "this string was never closed on purpose} { return }

// -----

// expected-error @+1 {{unknown escape in string literal}}
func.func @g() attributes {note = "\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\q"} { return }
