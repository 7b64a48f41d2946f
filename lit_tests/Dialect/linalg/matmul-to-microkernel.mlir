// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-matmul-to-microkernel{vector-bits=512 mr=4 kc=16 mc=32 nc=64})' | filecheck %s
// RUN: mlkit-opt %s --split-input-file --mcpu=x86-64-v3 -p 'builtin.module(linalg-matmul-to-microkernel{kc=16 mc=32 nc=64})' | filecheck %s --check-prefix=AVX2
// RUN: mlkit-opt %s --split-input-file --mtriple=aarch64-linux-gnu --mcpu=cortex-a72 -p 'builtin.module(linalg-matmul-to-microkernel{kc=16 mc=32 nc=64})' | filecheck %s --check-prefix=NEON

// A static matmul: B packed row by row with whole vectors, A packed by
// loading 4 rows and transposing them with shuffles, then a k loop carrying
// the 4 x 2 accumulators of the 4 x 32 tile; each k loads a B row, broadcasts
// 4 A elements and does 8 FMAs. The tile is added to C after the loop.
// Sizes that are multiples of the blocks need no edge paths.

// CHECK-LABEL: func.func @matmul
// CHECK-SAME: (%[[A:[^:]+]]: memref<64x32xf32>, %[[B:[^:]+]]: memref<32x64xf32>, %[[C:[^:]+]]: memref<64x64xf32>)
// CHECK-DAG: %[[ZERO:.+]] = arith.constant dense<0.000000e+00> : vector<16xf32>
// CHECK-DAG: %[[AP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<8x64xf32>
// CHECK-DAG: %[[BP:.+]] = memref.alloc() {alignment = 64 : i64} : memref<2x512xf32>
// CHECK: scf.for
// CHECK: scf.for
// CHECK: %[[ROW:.+]] = vector.load %[[B]][{{.+}}] : memref<32x64xf32>, vector<16xf32>
// CHECK-NEXT: vector.store %[[ROW]], %[[BP]][{{.+}}] : memref<2x512xf32>, vector<16xf32>
// CHECK-COUNT-4: vector.load %[[A]][{{.+}}] : memref<64x32xf32>, vector<16xf32>
// CHECK-COUNT-8: vector.shuffle
// CHECK-COUNT-4: vector.store {{.+}}, %[[AP]][{{.+}}] : memref<8x64xf32>, vector<16xf32>
// CHECK-NOT: scf.if
// CHECK: %[[ACC:.+]]:8 = scf.for %{{.+}} = %{{.+}} to %{{.+}} step %{{.+}} iter_args(%{{.+}} = %[[ZERO]], {{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>) {
// CHECK-COUNT-2: vector.load %[[BP]]
// CHECK: memref.load %[[AP]]
// CHECK-NEXT: vector.broadcast {{.+}} : f32 to vector<16xf32>
// CHECK-COUNT-8: vector.fma {{.+}} : vector<16xf32>
// CHECK: scf.yield
// CHECK-NEXT: }
// CHECK-NEXT: %[[OLD:.+]] = vector.load %[[C]][{{.+}}] : memref<64x64xf32>, vector<16xf32>
// CHECK-NEXT: %[[NEW:.+]] = arith.addf %[[OLD]], %[[ACC]]#0 : vector<16xf32>
// CHECK-NEXT: vector.store %[[NEW]], %[[C]][{{.+}}] : memref<64x64xf32>, vector<16xf32>
// CHECK: memref.dealloc %[[AP]]
// CHECK: memref.dealloc %[[BP]]
// CHECK-NOT: linalg.matmul

// AVX2 (16 ymm registers): a 6 x 16 tile, 12 accumulators of vector<8xf32>.
// AVX2-LABEL: func.func @matmul
// AVX2: scf.for {{.+}} iter_args
// AVX2-COUNT-12: vector.fma {{.+}} : vector<8xf32>
// AVX2-NEXT: scf.yield

// NEON (32 q registers): an 8 x 8 tile, 16 accumulators of vector<4xf32>.
// NEON-LABEL: func.func @matmul
// NEON: scf.for {{.+}} iter_args
// NEON-COUNT-16: vector.fma {{.+}} : vector<4xf32>
// NEON-NEXT: scf.yield
func.func @matmul(%a: memref<64x32xf32>, %b: memref<32x64xf32>, %c: memref<64x64xf32>) {
  linalg.matmul ins(%a, %b : memref<64x32xf32>, memref<32x64xf32>) outs(%c : memref<64x64xf32>)
  return
}

// -----

// The generic form (what linalg-generalize-named-ops makes of a matmul), with
// the body's operands in the other order, is the same matmul.

// CHECK-LABEL: func.func @generic
// CHECK-NOT: linalg.generic
// CHECK-COUNT-8: vector.fma
func.func @generic(%a: memref<16x8xf32>, %b: memref<8x32xf32>, %c: memref<16x32xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<16x8xf32>, memref<8x32xf32>) outs(%c : memref<16x32xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %m = arith.mulf %y, %x : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Dynamic sizes in f64: the extents come from memref.dim, every block is
// clipped with minsi, edge slivers are packed element by element with zeros
// after them, and a tile that may cross the edge of C goes through a 4 x 16
// scratch tile.

// CHECK-LABEL: func.func @dynamic_f64
// CHECK-SAME: (%[[A:[^:]+]]: memref<?x?xf64>, %[[B:[^:]+]]: memref<?x?xf64>, %[[C:[^:]+]]: memref<?x?xf64>)
// CHECK-DAG: memref.dim %[[C]], %{{.+}} : memref<?x?xf64>
// CHECK-DAG: memref.dim %[[A]], %{{.+}} : memref<?x?xf64>
// CHECK-DAG: %[[ZERO:.+]] = arith.constant 0.000000e+00 : f64
// CHECK-DAG: %[[TILE:.+]] = memref.alloc() {alignment = 64 : i64} : memref<4x16xf64>
// CHECK: arith.minsi
// CHECK: scf.if
// CHECK: vector.load %[[B]]{{.+}} vector<8xf64>
// CHECK: } else {
// CHECK: memref.load %[[B]]
// CHECK: memref.store %[[ZERO]]
// CHECK: scf.for {{.+}} iter_args
// CHECK-COUNT-8: vector.fma {{.+}} : vector<8xf64>
// CHECK: scf.if
// CHECK: vector.store {{.+}}, %[[C]]
// CHECK: } else {
// CHECK: memref.store {{.+}}, %[[TILE]]
// CHECK: vector.load %[[TILE]]
// CHECK: memref.store {{.+}}, %[[C]]
// CHECK: memref.dealloc %[[TILE]]
func.func @dynamic_f64(%a: memref<?x?xf64>, %b: memref<?x?xf64>, %c: memref<?x?xf64>) {
  linalg.matmul ins(%a, %b : memref<?x?xf64>, memref<?x?xf64>) outs(%c : memref<?x?xf64>)
  return
}

// -----

// batch_matmul: one blocked nest per batch index, which indexes every operand.

// CHECK-LABEL: func.func @batch
// CHECK: %[[C2:.+]] = arith.constant 2 : index
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[C2]] step
// CHECK: vector.load %{{.+}}[%[[I]], {{.+}}] : memref<2x8x32xf32>, vector<16xf32>
// CHECK: vector.load %{{.+}}[%[[I]], {{.+}}] : memref<2x16x8xf32>, vector<16xf32>
// CHECK-COUNT-8: vector.fma
// CHECK: vector.load %{{.+}}[%[[I]], {{.+}}] : memref<2x16x32xf32>, vector<16xf32>
func.func @batch(%a: memref<2x16x8xf32>, %b: memref<2x8x32xf32>, %c: memref<2x16x32xf32>) {
  linalg.batch_matmul ins(%a, %b : memref<2x16x8xf32>, memref<2x8x32xf32>) outs(%c : memref<2x16x32xf32>)
  return
}

// -----

// A transposed B (contiguous along k) is packed by transposing 32 rows with
// shuffles; a transposed A (contiguous along m) is packed row by row.

// CHECK-LABEL: func.func @transposed
// CHECK-COUNT-16: vector.load %{{.+}} : memref<32x16xf32>, vector<16xf32>
// CHECK: vector.shuffle
// CHECK: vector.load %{{.+}} : memref<16x16xf32>, vector<4xf32>
// CHECK-NEXT: vector.store %{{.+}} : memref<4x64xf32>, vector<4xf32>
// CHECK-COUNT-8: vector.fma
func.func @transposed(%at: memref<16x16xf32>, %bt: memref<32x16xf32>, %c: memref<16x32xf32>) {
  linalg.matmul indexing_maps = [affine_map<(d0, d1, d2) -> (d2, d0)>,
                                 affine_map<(d0, d1, d2) -> (d1, d2)>,
                                 affine_map<(d0, d1, d2) -> (d0, d1)>]
      ins(%at, %bt : memref<16x16xf32>, memref<32x16xf32>) outs(%c : memref<16x32xf32>)
  return
}

// -----

// A dense layer: the fill before the matmul becomes the accumulators' start
// (C is never read, so no longer allocated), and the bias + relu after it is
// applied to each finished tile, stored to its own output. No linalg op is
// left.

// CHECK-LABEL: func.func @dense
// CHECK-SAME: (%[[X:[^:]+]]: memref<16x8xf32>, %[[W:[^:]+]]: memref<8x32xf32>, %[[BIAS:[^:]+]]: memref<32xf32>)
// CHECK-NOT: linalg.
// CHECK: %[[OUT:[^ ]+]] = memref.alloc() : memref<16x32xf32>
// CHECK-NOT: memref.alloc() : memref<16x32xf32>
// CHECK: scf.for {{.+}} iter_args
// CHECK-COUNT-8: vector.fma
// CHECK: %[[HALF:.+]] = vector.broadcast %{{.+}} : f32 to vector<16xf32>
// CHECK-NEXT: %[[T:.+]] = arith.addf %[[HALF]], %{{.+}} : vector<16xf32>
// CHECK-NEXT: %[[B:.+]] = vector.load %[[BIAS]][{{.+}}] : memref<32xf32>, vector<16xf32>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[T]], %[[B]] : vector<16xf32>
// CHECK: %[[R:.+]] = arith.maximumf %[[S]], %{{.+}} : vector<16xf32>
// CHECK-NEXT: vector.store %[[R]], %[[OUT]][{{.+}}] : memref<16x32xf32>, vector<16xf32>
// CHECK-NOT: linalg.
func.func @dense(%x: memref<16x8xf32>, %w: memref<8x32xf32>, %bias: memref<32xf32>) -> memref<16x32xf32> {
  %zero = arith.constant 0.0 : f32
  %half = arith.constant 0.5 : f32
  %y = memref.alloc() : memref<16x32xf32>
  linalg.fill ins(%half : f32) outs(%y : memref<16x32xf32>)
  linalg.matmul ins(%x, %w : memref<16x8xf32>, memref<8x32xf32>) outs(%y : memref<16x32xf32>)
  %out = memref.alloc() : memref<16x32xf32>
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d1)>,
                                   affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y, %bias : memref<16x32xf32>, memref<32xf32>) outs(%out : memref<16x32xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.addf %a, %b : f32
    %r = arith.maximumf %s, %zero : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<16x32xf32>
  return %out : memref<16x32xf32>
}

// -----

// An elementwise op after a matmul stays when the matmul's result is still
// used (here: the caller's buffer), or when it writes a buffer that is not a
// fresh allocation (it might alias the operands); the matmul is rewritten.

// CHECK-LABEL: func.func @live_result
// CHECK: vector.fma
// CHECK: linalg.generic

// CHECK-LABEL: func.func @into_argument
// CHECK: vector.fma
// CHECK: linalg.generic
func.func @live_result(%x: memref<16x8xf32>, %w: memref<8x32xf32>, %y: memref<16x32xf32>, %out: memref<16x32xf32>) {
  linalg.matmul ins(%x, %w : memref<16x8xf32>, memref<8x32xf32>) outs(%y : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<16x32xf32>) outs(%out : memref<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }
  return
}

func.func @into_argument(%x: memref<16x8xf32>, %w: memref<8x32xf32>, %out: memref<16x32xf32>) {
  %y = memref.alloc() : memref<16x32xf32>
  linalg.matmul ins(%x, %w : memref<16x8xf32>, memref<8x32xf32>) outs(%y : memref<16x32xf32>)
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%y : memref<16x32xf32>) outs(%out : memref<16x32xf32>) {
  ^bb0(%a: f32, %o: f32):
    %r = arith.negf %a : f32
    linalg.yield %r : f32
  }
  memref.dealloc %y : memref<16x32xf32>
  return
}

// -----

// Left alone: integer matmuls, matmuls that widen their operands, ops on
// tensors (before bufferization) and generics that are not matmuls.

// CHECK-LABEL: func.func @integer
// CHECK: linalg.matmul
func.func @integer(%a: memref<8x8xi32>, %b: memref<8x8xi32>, %c: memref<8x8xi32>) {
  linalg.matmul ins(%a, %b : memref<8x8xi32>, memref<8x8xi32>) outs(%c : memref<8x8xi32>)
  return
}

// CHECK-LABEL: func.func @widening
// CHECK: linalg.matmul
func.func @widening(%a: memref<8x8xf16>, %b: memref<8x8xf16>, %c: memref<8x8xf32>) {
  linalg.matmul ins(%a, %b : memref<8x8xf16>, memref<8x8xf16>) outs(%c : memref<8x8xf32>)
  return
}

// CHECK-LABEL: func.func @on_tensors
// CHECK: linalg.matmul
func.func @on_tensors(%a: tensor<8x8xf32>, %b: tensor<8x8xf32>, %c: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %r = linalg.matmul ins(%a, %b : tensor<8x8xf32>, tensor<8x8xf32>) outs(%c : tensor<8x8xf32>) -> tensor<8x8xf32>
  return %r : tensor<8x8xf32>
}

// A reduction that multiplies and adds but is a matvec (no n loop): no
// packed nest, the dot-product loops of matvec-to-microkernel.mlir.
// CHECK-LABEL: func.func @matvec
// CHECK-NOT: memref.alloc
// CHECK: vector.reduction
// CHECK-NOT: linalg.matvec
func.func @matvec(%a: memref<8x8xf32>, %x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.matvec ins(%a, %x : memref<8x8xf32>, memref<8xf32>) outs(%y : memref<8xf32>)
  return
}

// CHECK-LABEL: func.func @max_plus
// CHECK: linalg.generic
func.func @max_plus(%a: memref<8x8xf32>, %b: memref<8x8xf32>, %c: memref<8x8xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>,
                                   affine_map<(d0, d1, d2) -> (d2, d1)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<8x8xf32>, memref<8x8xf32>) outs(%c : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %o : f32
    linalg.yield %m : f32
  }
  return
}
