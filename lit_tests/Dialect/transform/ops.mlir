// RUN: mlkit-opt %s | mlkit-opt | FileCheck %s

// The transform ops a tiling script uses print back as written, with upstream's
// result names.

// CHECK-LABEL: transform.named_sequence @__transform_main
// CHECK-SAME:    (%[[ROOT:.*]]: !transform.any_op {transform.readonly})
module attributes {transform.with_named_sequence} {
  transform.named_sequence @__transform_main(%root: !transform.any_op {transform.readonly}) {
    // CHECK: %[[MM:.*]] = transform.structured.match ops{["linalg.matmul"]} in %[[ROOT]] : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match ops{["linalg.matmul"]} in %root : (!transform.any_op) -> !transform.any_op
    // CHECK: transform.structured.match ops{["linalg.fill"]} in %[[ROOT]] : (!transform.any_op) -> !transform.op<"linalg.fill">
    %fill = transform.structured.match ops{["linalg.fill"]} in %root : (!transform.any_op) -> !transform.op<"linalg.fill">
    // CHECK: %tiled_linalg_op, %loops:2 = transform.structured.tile_using_for %[[MM]] tile_sizes [32, 0, 16] interchange = [1, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %t, %l:2 = transform.structured.tile_using_for %mm tile_sizes [32, 0, 16] interchange = [1, 0, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // CHECK: %transformed, %loops_{{.*}}:2 = transform.structured.fuse %[[MM]] tile_sizes [32, 16] interchange [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    %f, %fl:2 = transform.structured.fuse %mm tile_sizes [32, 16] interchange [1, 0] : (!transform.any_op) -> (!transform.any_op, !transform.any_op, !transform.any_op)
    // CHECK: transform.structured.fuse %[[MM]] tile_sizes [8] {use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %g, %gl = transform.structured.fuse %mm tile_sizes [8] {use_forall} : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // CHECK: %tiled_op, %forall_op = transform.structured.tile_using_forall %[[MM]] num_threads [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %a, %b = transform.structured.tile_using_forall %mm num_threads [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // CHECK: transform.structured.tile_using_forall %[[MM]] tile_sizes [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %c, %d = transform.structured.tile_using_forall %mm tile_sizes [4, 2] : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    // CHECK: transform.yield
    transform.yield
  }
}
