// A fill, a matmul and a relu, tiled by 2x2 with the producers fused into the
// tiles (3x3 output: the last tiles are partial), compute what the untiled
// program computes, through the plain lowering and through lower-to-cpu.

// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter, test-transform-dialect-erase-schedule, one-shot-bufferize{bufferize-function-boundaries allow-return-allocs-from-loops}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(transform-interpreter, test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void -O3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(test-transform-dialect-erase-schedule, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [3, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0,   2,   0],
// CHECK-NEXT{LITERAL}: [0,   4,   1],
// CHECK-NEXT{LITERAL}: [0,   6,   2]]

#id = affine_map<(d0, d1) -> (d0, d1)>
module attributes {transform.with_named_sequence} {
  func.func private @printMemrefF32(tensor<*xf32>)

  func.func @main() {
    %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
    %b = arith.constant dense<[[-1.0, 0.0, 1.0], [0.0, 1.0, -0.5]]> : tensor<2x3xf32>
    %e = tensor.empty() : tensor<3x3xf32>
    %zero = arith.constant 0.0 : f32
    %f = linalg.fill ins(%zero : f32) outs(%e : tensor<3x3xf32>) -> tensor<3x3xf32>
    %m = linalg.matmul ins(%a, %b : tensor<3x2xf32>, tensor<2x3xf32>) outs(%f : tensor<3x3xf32>) -> tensor<3x3xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]} ins(%m : tensor<3x3xf32>) outs(%e : tensor<3x3xf32>) {
    ^bb0(%x: f32, %o: f32):
      %y = arith.maximumf %x, %zero : f32
      linalg.yield %y : f32
    } -> tensor<3x3xf32>
    %u = tensor.cast %r : tensor<3x3xf32> to tensor<*xf32>
    call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
    return
  }

  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    %0 = transform.structured.match ops{["linalg.generic"]} in %root : (!transform.any_op) -> !transform.any_op
    %1, %loops:2 = transform.structured.fuse %0 tile_sizes [2, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    transform.yield
  }
}
