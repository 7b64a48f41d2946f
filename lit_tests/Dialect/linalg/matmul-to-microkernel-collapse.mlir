// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-matmul-to-microkernel{vector-bits=512 mr=4 kc=16 mc=32 nc=64})' | filecheck %s

// A 3-D x @ W after reshape propagation folded its collapse_shape into the
// op: two m loops (d0, d1), adjacent and in the same order in A and C. Each
// group becomes one dimension of a memref.collapse_shape view, and the view
// is the 2-D matmul; B, with one dimension per role, is used as it is.

// CHECK-LABEL: func.func @two_m_loops
// CHECK-SAME: (%[[A:[^:]+]]: memref<2x8x16xf32>, %[[B:[^:]+]]: memref<16x32xf32>, %[[C:[^:]+]]: memref<2x8x32xf32>)
// CHECK-DAG: %[[A2:.+]] = memref.collapse_shape %[[A]] {{\[}}[0, 1], [2]] : memref<2x8x16xf32> into memref<16x16xf32>
// CHECK-DAG: %[[C2:.+]] = memref.collapse_shape %[[C]] {{\[}}[0, 1], [2]] : memref<2x8x32xf32> into memref<16x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: vector.load %[[B]][{{.+}}] : memref<16x32xf32>, vector<16xf32>
// CHECK: vector.load %[[A2]][{{.+}}] : memref<16x16xf32>, vector<16xf32>
// CHECK-COUNT-8: vector.fma
// CHECK: vector.store %{{.+}}, %[[C2]][{{.+}}] : memref<16x32xf32>, vector<16xf32>
func.func @two_m_loops(%a: memref<2x8x16xf32>, %b: memref<16x32xf32>, %c: memref<2x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x8x16xf32>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A dynamic batch: the collapsed dimension is dynamic, its extent from memref.dim.

// CHECK-LABEL: func.func @dynamic_batch
// CHECK-DAG: memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : memref<?x8x16xf32> into memref<?x16xf32>
// CHECK-DAG: %[[C2:.+]] = memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : memref<?x8x32xf32> into memref<?x32xf32>
// CHECK-DAG: memref.dim %[[C2]], %{{.+}} : memref<?x32xf32>
// CHECK-NOT: linalg.generic
// CHECK-COUNT-8: vector.fma
func.func @dynamic_batch(%a: memref<?x8x16xf32>, %b: memref<16x32xf32>, %c: memref<?x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x8x16xf32>, memref<16x32xf32>) outs(%c : memref<?x8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two k loops and two n loops (B transposed: n before k), with a batch loop
// that stays a loop of its own around the nest.

// CHECK-LABEL: func.func @several_k_and_n
// CHECK-DAG: memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : memref<3x16x2x8xf32> into memref<3x16x16xf32>
// CHECK-DAG: memref.collapse_shape %{{.+}} {{\[}}[0], [1, 2], [3, 4]] : memref<3x4x8x2x8xf32> into memref<3x32x16xf32>
// CHECK-DAG: memref.collapse_shape %{{.+}} {{\[}}[0], [1], [2, 3]] : memref<3x16x4x8xf32> into memref<3x16x32xf32>
// CHECK-NOT: linalg.generic
// CHECK: scf.for
// CHECK-COUNT-8: vector.fma
func.func @several_k_and_n(%a: memref<3x16x2x8xf32>, %b: memref<3x4x8x2x8xf32>, %c: memref<3x16x4x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d4, d5)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d2, d3, d4, d5)>,
                                   affine_map<(d0, d1, d2, d3, d4, d5) -> (d0, d1, d2, d3)>],
                  iterator_types = ["parallel", "parallel", "parallel", "parallel", "reduction", "reduction"]}
      ins(%a, %b : memref<3x16x2x8xf32>, memref<3x4x8x2x8xf32>) outs(%c : memref<3x16x4x8xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A strided layout whose strides make each group contiguous collapses with
// its offset; the group's stride is its innermost dimension's.

// CHECK-LABEL: func.func @strided_contiguous
// CHECK: memref.collapse_shape %{{.+}} {{\[}}[0, 1], [2]] : memref<2x8x16xf32, strided<[128, 16, 1], offset: 5>> into memref<16x16xf32, strided<[16, 1], offset: 5>>
// CHECK-NOT: linalg.generic
// CHECK-COUNT-8: vector.fma
func.func @strided_contiguous(%a: memref<2x8x16xf32, strided<[128, 16, 1], offset: 5>>, %b: memref<16x32xf32>, %c: memref<2x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x8x16xf32, strided<[128, 16, 1], offset: 5>>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone (scalar loops later): a group that is not contiguous in memory
// (256 is not 8 * 16), a group with dynamic strides, a group split by another
// dimension (A is [b, k, s]), and groups in different orders in A and C.

// CHECK-LABEL: func.func @strided_gap
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic
func.func @strided_gap(%a: memref<2x8x16xf32, strided<[256, 16, 1]>>, %b: memref<16x32xf32>, %c: memref<2x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x8x16xf32, strided<[256, 16, 1]>>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @dynamic_strides
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic
func.func @dynamic_strides(%a: memref<2x8x16xf32, strided<[?, ?, 1], offset: ?>>, %b: memref<16x32xf32>, %c: memref<2x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x8x16xf32, strided<[?, ?, 1], offset: ?>>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @split_group
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic
func.func @split_group(%a: memref<2x16x8xf32>, %b: memref<16x32xf32>, %c: memref<2x8x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d3, d1)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x16x8xf32>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// CHECK-LABEL: func.func @other_order
// CHECK-NOT: memref.collapse_shape
// CHECK: linalg.generic
func.func @other_order(%a: memref<2x8x16xf32>, %b: memref<16x32xf32>, %c: memref<8x2x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d1, d0, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<2x8x16xf32>, memref<16x32xf32>) outs(%c : memref<8x2x32xf32>) {
  ^bb0(%x: f32, %w: f32, %acc: f32):
    %p = arith.mulf %x, %w : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// A 3-D dense layer: the fill and the bias + relu are absorbed as in 2-D; the
// partial sums live in the (collapsed) output of the epilogue, C goes away.

// CHECK-LABEL: func.func @dense_3d
// CHECK-SAME: (%[[X:[^:]+]]: memref<2x8x16xf32>, %[[W:[^:]+]]: memref<16x32xf32>, %[[BIAS:[^:]+]]: memref<32xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[OUT:[^ ]+]] = memref.alloc() : memref<2x8x32xf32>
// CHECK-NOT: memref.alloc() : memref<2x8x32xf32>
// CHECK: %[[OUT2:.+]] = memref.collapse_shape %[[OUT]] {{\[}}[0, 1], [2]] : memref<2x8x32xf32> into memref<16x32xf32>
// CHECK-COUNT-8: vector.fma
// CHECK: vector.load %[[BIAS]]
// CHECK: arith.maximumf {{.+}} : vector<16xf32>
// CHECK: vector.store %{{.+}}, %[[OUT2]][{{.+}}] : memref<16x32xf32>, vector<16xf32>
// CHECK-NOT: linalg.
// CHECK: return %[[OUT]]
func.func @dense_3d(%x: memref<2x8x16xf32>, %w: memref<16x32xf32>, %bias: memref<32xf32>) -> memref<2x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x8x16xf32>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<2x8x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %bias : memref<2x8x32xf32>, memref<32xf32>) outs(%out : memref<2x8x32xf32>) {
  ^bb0(%v: f32, %q: f32, %o: f32):
    %t = arith.addf %v, %q : f32
    %u = arith.maximumf %t, %zero : f32
    linalg.yield %u : f32
  }
  memref.dealloc %c : memref<2x8x32xf32>
  return %out : memref<2x8x32xf32>
}

// -----

// An epilogue operand that reads only part of a collapsed group (d1 of the
// m group d0, d1) has no one flat index: the epilogue stays, the matmul is
// rewritten.

// CHECK-LABEL: func.func @partial_group_epilogue
// CHECK: vector.fma
// CHECK: linalg.generic
func.func @partial_group_epilogue(%x: memref<2x8x16xf32>, %w: memref<16x32xf32>, %rows: memref<8xf32>) -> memref<2x8x32xf32> {
  %zero = arith.constant 0.0 : f32
  %c = memref.alloc() : memref<2x8x32xf32>
  linalg.fill ins(%zero : f32) outs(%c : memref<2x8x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>,
                                   affine_map<(d0, d1, d2, d3) -> (d3, d2)>,
                                   affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel", "reduction"]}
      ins(%x, %w : memref<2x8x16xf32>, memref<16x32xf32>) outs(%c : memref<2x8x32xf32>) {
  ^bb0(%a: f32, %b: f32, %acc: f32):
    %p = arith.mulf %a, %b : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  %out = memref.alloc() : memref<2x8x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1, d2)>],
                  iterator_types = ["parallel", "parallel", "parallel"]}
      ins(%c, %rows : memref<2x8x32xf32>, memref<8xf32>) outs(%out : memref<2x8x32xf32>) {
  ^bb0(%v: f32, %q: f32, %o: f32):
    %t = arith.addf %v, %q : f32
    linalg.yield %t : f32
  }
  memref.dealloc %c : memref<2x8x32xf32>
  return %out : memref<2x8x32xf32>
}
