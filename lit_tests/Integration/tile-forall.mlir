// A fill and a matmul, the matmul tiled onto an scf.forall (by tile sizes, and
// by a number of threads; 5x4 output, so the last tiles are partial): after
// one-shot-bufferize and the thread pool, 1 and 3 threads compute what the
// untiled program computes.

// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter{entry-point=tile_sizes}, test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void -num-threads=1 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter{entry-point=tile_sizes}, test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void -num-threads=3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter{entry-point=num_threads}, test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void -num-threads=1 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter{entry-point=num_threads}, test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void -num-threads=3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// The tiled program keeps its forall until scf-forall-to-parallel.
// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter{entry-point=num_threads}, test-transform-dialect-erase-schedule, one-shot-bufferize{bufferize-function-boundaries})' \
// RUN: | filecheck %s --check-prefix=BUF
// BUF:       scf.forall (%{{.*}}, %{{.*}}) in (3, 2) {
// BUF:         linalg.matmul
// BUF:         memref.copy
// BUF-NEXT:  }

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [5, 4] strides = [4, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[6,   3,   0,   -3],
// CHECK-NEXT{LITERAL}: [9,   3,   -3,   -9],
// CHECK-NEXT{LITERAL}: [12,   3,   -6,   -15],
// CHECK-NEXT{LITERAL}: [15,   3,   -9,   -21],
// CHECK-NEXT{LITERAL}: [18,   3,   -12,   -27]]

module attributes {transform.with_named_sequence} {
  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @main() {
    %a = arith.constant dense<[[0.0, 1.0, 2.0], [1.0, 2.0, 3.0], [2.0, 3.0, 4.0], [3.0, 4.0, 5.0], [4.0, 5.0, 6.0]]> : tensor<5x3xf32>
    %b = arith.constant dense<[[0.0, -1.0, -2.0, -3.0], [1.0, 0.0, -1.0, -2.0], [2.0, 1.0, 0.0, -1.0]]> : tensor<3x4xf32>
    %e = tensor.empty() : tensor<5x4xf32>
    %one = arith.constant 1.0 : f32
    %f = linalg.fill ins(%one : f32) outs(%e : tensor<5x4xf32>) -> tensor<5x4xf32>
    %m = linalg.matmul ins(%a, %b : tensor<5x3xf32>, tensor<3x4xf32>) outs(%f : tensor<5x4xf32>) -> tensor<5x4xf32>
    %u = tensor.cast %m : tensor<5x4xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  transform.named_sequence @tile_sizes(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %2 = transform.structured.tile_using_forall %0 tile_sizes [2, 3] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }

  transform.named_sequence @num_threads(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %2 = transform.structured.tile_using_forall %0 num_threads [3, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    transform.yield
  }
}
