// arith on 2-D vectors, lowered row by row, computes per element.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:( ( 11, 22, 33 ), ( 44, 55, 66 ) )
// CHECK-NEXT:( ( 1, 1, 1 ), ( 0, 0, 0 ) )
// CHECK-NEXT:( ( 11, 2, 33 ), ( 4, 55, 6 ) )

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : vector<2x3xf32>
  %b = arith.constant dense<[[10.0, 20.0, 30.0], [40.0, 50.0, 60.0]]> : vector<2x3xf32>
  %three = arith.constant dense<3.5> : vector<2x3xf32>
  %m = arith.constant dense<[[true, false, true], [false, true, false]]> : vector<2x3xi1>
  %s = arith.addf %a, %b : vector<2x3xf32>
  %lt = arith.cmpf olt, %a, %three : vector<2x3xf32>
  %pick = arith.select %m, %s, %a : vector<2x3xi1>, vector<2x3xf32>
  vector.print %s : vector<2x3xf32>
  vector.print %lt : vector<2x3xi1>
  vector.print %pick : vector<2x3xf32>
  return
}
