// A chain of elementwise ops on tensors (arith ops on tensors, a named op,
// splat constants) becomes one linalg.generic, and runs.

// RUN: mlkit-opt %s -p 'builtin.module(func.func(convert-elementwise-to-linalg, linalg-generalize-named-ops, linalg-fuse-elementwise-ops))' \
// RUN: | filecheck %s --check-prefix=FUSED
// RUN: mlkit-opt %s -p 'builtin.module(func.func(convert-elementwise-to-linalg, linalg-generalize-named-ops, linalg-fuse-elementwise-ops), canonicalize, cse, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// FUSED-LABEL: func.func @main
// FUSED-COUNT-1: linalg.generic
// FUSED-NOT:   linalg.generic
// FUSED:       call @printMemrefF32

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[4,   -1,   1],
// CHECK-NEXT{LITERAL}: [8.5,   -3.5,   -2]]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, -2.0, 0.5], [3.0, 0.25, -1.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[2.0, 1.0, 4.0], [0.5, 8.0, 2.0]]> : tensor<2x3xf32>
  %zeros = arith.constant dense<0.0> : tensor<2x3xf32>
  %twos = arith.constant dense<2.0> : tensor<2x3xf32>
  %e = tensor.empty() : tensor<2x3xf32>
  %0 = arith.mulf %a, %b : tensor<2x3xf32>
  %1 = arith.addf %0, %a : tensor<2x3xf32>
  %2 = linalg.max ins(%1, %zeros : tensor<2x3xf32>, tensor<2x3xf32>) outs(%e : tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = arith.mulf %2, %twos : tensor<2x3xf32>
  %4 = arith.subf %3, %b : tensor<2x3xf32>
  %u = tensor.cast %4 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
