// linalg.softmax through lower-to-cpu: decomposed into generics, fused and
// run. Rows of 5 (an odd size: the vector loops' tails), along the last and
// the first dimension; a row of equal values gives 1/5 each, a row with
// -inf gives it zero weight (numpy's numbers).

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0.2,   0.2,   0.2,   0.2,   0.2],
// CHECK-NEXT{LITERAL}: [0.0116562,   0.0316849,   0.0861285,   0.234122,   0.636409],
// CHECK-NEXT{LITERAL}: [0,   0.5,   0,   0.5,   0]]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 5] strides = [5, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0.880797,   0.017868,   0.5,   0.0171478,   0.119203],
// CHECK-NEXT{LITERAL}: [0.119203,   0.00657326,   0.5,   0.0466126,   0.880797],
// CHECK-NEXT{LITERAL}: [0,   0.975559,   0,   0.93624,   0]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %x = arith.constant dense<[[3.0, 3.0, 3.0, 3.0, 3.0], [1.0, 2.0, 3.0, 4.0, 5.0], [0xFF800000, 7.0, 0xFF800000, 7.0, 0xFF800000]]> : tensor<3x5xf32>
  %e = tensor.empty() : tensor<3x5xf32>
  %rows = linalg.softmax dimension(1) ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %cols = linalg.softmax dimension(0) ins(%x : tensor<3x5xf32>) outs(%e : tensor<3x5xf32>) -> tensor<3x5xf32>
  %u = tensor.cast %rows : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  %v = tensor.cast %cols : tensor<3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%v) : (tensor<*xf32>) -> ()
  return
}
