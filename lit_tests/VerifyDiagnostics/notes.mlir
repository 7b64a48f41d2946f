// RUN: mlkit-opt %s --verify-diagnostics

func.func @f() {
  // expected-error @+2 {{region ends with missing block declarations for block(s) bb1}}
  // expected-note @+1 {{reference to block "^bb1" without implementation}}
  cf.br ^bb1
}
