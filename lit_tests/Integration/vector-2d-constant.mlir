// A row of a 2-D vector constant: the constant is an LLVM array of vectors,
// and taking a row of it stays an extractvalue instruction (it used to fail
// to translate, "cannot take apart this aggregate constant").

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s --check-prefix=IR

// CHECK:( 3, 4 )
// CHECK-NEXT:( 1, 2 )
// IR: extractvalue [2 x <2 x float>] [<2 x float> <float 1.000000e+00, float 2.000000e+00>, <2 x float> <float 3.000000e+00, float 4.000000e+00>], 1

func.func @main() {
  %c = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : vector<2x2xf32>
  %row1 = vector.extract %c[1] : vector<2xf32> from vector<2x2xf32>
  %row0 = vector.extract %c[0] : vector<2xf32> from vector<2x2xf32>
  vector.print %row1 : vector<2xf32>
  vector.print %row0 : vector<2xf32>
  return
}
