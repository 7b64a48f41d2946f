// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-vectorize-loops{vector-bits=256 unroll=1})' | filecheck %s
// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-vectorize-loops{vector-bits=512 unroll=2 interleave=false})' | filecheck %s --check-prefix=UNROLL
// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-vectorize-loops{vector-bits=512 unroll=2})' | filecheck %s --check-prefix=INTERLEAVE
// RUN: mlkit-opt %s --split-input-file --mtriple=x86_64-unknown-linux-gnu --mcpu=haswell -p 'builtin.module(linalg-vectorize-loops{unroll=2})' | filecheck %s --check-prefix=AVX2
// RUN: mlkit-opt %s --split-input-file --mtriple=aarch64-linux-gnu --mcpu=cortex-a72 -linalg-vectorize-loops | filecheck %s --check-prefix=NEON

// An elementwise op: a vector loop over whole vectors, the loop-invariant
// constant broadcast once before it, and a scalar loop for the remainder.

// CHECK-LABEL: func.func @elementwise
// CHECK-SAME: (%[[X:[^:]+]]: memref<?xf32>, %[[Y:[^:]+]]: memref<?xf32>)
// CHECK-DAG: %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG: %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG: %[[C8:.+]] = arith.constant 8 : index
// CHECK: %[[N:.+]] = memref.dim %[[X]], %[[C0]]
// CHECK: %[[REM:.+]] = arith.remui %[[N]], %[[C8]] : index
// CHECK: %[[END:.+]] = arith.subi %[[N]], %[[REM]] : index
// CHECK: %[[K:.+]] = arith.constant 1.500000e+00 : f32
// CHECK: %[[KV:.+]] = vector.broadcast %[[K]] : f32 to vector<8xf32>
// CHECK: scf.for %[[I:.+]] = %[[C0]] to %[[END]] step %[[C8]] {
// CHECK-NEXT: %[[A:.+]] = vector.load %[[X]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT: %[[O:.+]] = vector.load %[[Y]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT: %[[M:.+]] = arith.mulf %[[A]], %[[KV]] : vector<8xf32>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[M]], %[[O]] : vector<8xf32>
// CHECK-NEXT: vector.store %[[S]], %[[Y]][%[[I]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK: scf.for %[[J:.+]] = %[[END]] to %[[N]] step %[[C1]] {
// CHECK-NEXT: %[[SA:.+]] = memref.load %[[X]][%[[J]]] : memref<?xf32>
// CHECK-NEXT: %[[SO:.+]] = memref.load %[[Y]][%[[J]]] : memref<?xf32>
// CHECK-NEXT: %[[SM:.+]] = arith.mulf %[[SA]], %[[K]] : f32
// CHECK-NEXT: %[[SS:.+]] = arith.addf %[[SM]], %[[SO]] : f32
// CHECK-NEXT: memref.store %[[SS]], %[[Y]][%[[J]]] : memref<?xf32>
// CHECK-NOT: linalg.generic

// Unrolled by two on 512-bit vectors: two vectors per iteration of the main
// loop, then one vector at a time, then scalars.

// UNROLL-LABEL: func.func @elementwise
// UNROLL-DAG: %[[C16:.+]] = arith.constant 16 : index
// UNROLL-DAG: %[[C32:.+]] = arith.constant 32 : index
// UNROLL: %[[REM2:.+]] = arith.remui %[[N:.+]], %[[C32]] : index
// UNROLL: %[[END2:.+]] = arith.subi %[[N]], %[[REM2]] : index
// UNROLL: %[[REM1:.+]] = arith.remui %[[N]], %[[C16]] : index
// UNROLL: %[[END1:.+]] = arith.subi %[[N]], %[[REM1]] : index
// UNROLL: scf.for %[[I:.+]] = %{{.+}} to %[[END2]] step %[[C32]] {
// UNROLL: vector.store %{{.+}}, %{{.+}}[%[[I]]] : memref<?xf32>, vector<16xf32>
// UNROLL: %[[I2:.+]] = arith.addi %[[I]], %[[C16]] : index
// UNROLL: vector.store %{{.+}}, %{{.+}}[%[[I2]]] : memref<?xf32>, vector<16xf32>
// UNROLL: scf.for %{{.+}} = %[[END2]] to %[[END1]] step %[[C16]] {
// UNROLL: scf.for %{{.+}} = %[[END1]] to %[[N]] step %{{.+}} {
// UNROLL: memref.store

// With 32 vector registers (AVX-512, AArch64) the unrolled copies of an
// elementwise body are one op on a vector twice as wide, which LLVM splits into
// register-wide ops side by side; the tails stay one register wide.
// INTERLEAVE-LABEL: func.func @elementwise
// INTERLEAVE-DAG: %[[C16:.+]] = arith.constant 16 : index
// INTERLEAVE-DAG: %[[C32:.+]] = arith.constant 32 : index
// INTERLEAVE: vector.broadcast %{{.+}} : f32 to vector<32xf32>
// INTERLEAVE: scf.for %[[I:.+]] = %{{.+}} to %[[END2:.+]] step %[[C32]] {
// INTERLEAVE-NEXT: vector.load %{{.+}}[%[[I]]] : memref<?xf32>, vector<32xf32>
// INTERLEAVE-NOT: arith.addi
// INTERLEAVE: vector.store %{{.+}}, %{{.+}}[%[[I]]] : memref<?xf32>, vector<32xf32>
// INTERLEAVE-NEXT: }
// INTERLEAVE-NEXT: vector.broadcast %{{.+}} : f32 to vector<16xf32>
// INTERLEAVE-NEXT: scf.for %{{.+}} = %[[END2]] to %[[END1:.+]] step %[[C16]] {
// INTERLEAVE: vector.store %{{.+}} : memref<?xf32>, vector<16xf32>
// INTERLEAVE: scf.for %{{.+}} = %[[END1]] to %{{.+}} step %{{.+}} {
// INTERLEAVE: memref.store

// With 16 (AVX2) the copies stay one after the other.
// AVX2-LABEL: func.func @elementwise
// AVX2: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// AVX2: vector.store %{{.+}}, %{{.+}}[%[[I]]] : memref<?xf32>, vector<8xf32>
// AVX2: %[[I2:.+]] = arith.addi %[[I]], %{{.+}} : index
// AVX2: vector.store %{{.+}}, %{{.+}}[%[[I2]]] : memref<?xf32>, vector<8xf32>

// The default width is the target's: 128-bit NEON vectors for AArch64.

// NEON-LABEL: func.func @elementwise
// NEON: vector.load %{{.+}} : memref<?xf32>, vector<4xf32>

#id1 = affine_map<(d0) -> (d0)>
func.func @elementwise(%x: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id1, #id1], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %c = arith.constant 1.5 : f32
    %m = arith.mulf %a, %c : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Operands that do not vary with the innermost loop (a row value, a scalar)
// are loaded and combined once per row, and their result broadcast.

// CHECK-LABEL: func.func @broadcast_row
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x?xf32>, %[[B:[^:]+]]: memref<?xf32>, %[[K:[^:]+]]: f32, %[[Y:[^:]+]]: memref<?x?xf32>)
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[BI:.+]] = memref.load %[[B]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[T:.+]] = arith.mulf %[[BI]], %[[K]] : f32
// CHECK-NEXT: %[[TV:.+]] = vector.broadcast %[[T]] : f32 to vector<8xf32>
// CHECK-NEXT: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[A:.+]] = vector.load %[[X]][%[[I]], %[[J]]] : memref<?x?xf32>, vector<8xf32>
// CHECK-NEXT: %[[R:.+]] = arith.addf %[[A]], %[[TV]] : vector<8xf32>
// CHECK-NEXT: vector.store %[[R]], %[[Y]][%[[I]], %[[J]]] : memref<?x?xf32>, vector<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %[[J2:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[SA:.+]] = memref.load %[[X]][%[[I]], %[[J2]]] : memref<?x?xf32>
// CHECK-NEXT: %[[SR:.+]] = arith.addf %[[SA]], %[[T]] : f32
// CHECK-NEXT: memref.store %[[SR]], %[[Y]][%[[I]], %[[J2]]] : memref<?x?xf32>

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @broadcast_row(%x: memref<?x?xf32>, %b: memref<?xf32>, %k: f32, %y: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#id2, #row, affine_map<(d0, d1) -> ()>, #id2],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x, %b, %k : memref<?x?xf32>, memref<?xf32>, f32) outs(%y : memref<?x?xf32>) {
  ^bb0(%a: f32, %c: f32, %s: f32, %o: f32):
    %t = arith.mulf %c, %s : f32
    %r = arith.addf %a, %t : f32
    linalg.yield %r : f32
  }
  return
}

// -----

// Static sizes: no remainder loop when the vectors divide the size, and a
// size shorter than a vector narrows the vector to fit.

// CHECK-LABEL: func.func @static_sizes
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %[[C1000:.+]] step %[[C8:.+]] {
// CHECK-NEXT: vector.load %{{.+}}[%[[I]]] : memref<1000xf32>, vector<8xf32>
// CHECK-NEXT: math.exp %{{.+}} : vector<8xf32>
// CHECK-NEXT: vector.store
// CHECK-NEXT: }
// CHECK-NEXT: scf.for %{{.+}} = %{{.+}} to %[[C4:.+]] step %[[C4]] {
// CHECK-NEXT: vector.load %{{.+}} : memref<7xf32>, vector<4xf32>
// CHECK-NEXT: math.sqrt %{{.+}} : vector<4xf32>
// CHECK: scf.for %{{.+}} = %[[C4]] to %{{.+}} step %{{.+}} {
// CHECK-NEXT: memref.load %{{.+}} : memref<7xf32>
// CHECK-NEXT: math.sqrt %{{.+}} : f32

func.func @static_sizes(%x: memref<1000xf32>, %y: memref<7xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%x : memref<1000xf32>) {
  ^bb0(%o: f32):
    %s = math.exp %o : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%y : memref<7xf32>) {
  ^bb0(%o: f32):
    %s = math.sqrt %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// An innermost reduction: a vector accumulator starting at the identity
// (-0.0 for addf), vector.reduction into the init, then the scalar remainder.

// CHECK-LABEL: func.func @inner_reduction
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x?xf32>, %[[Y:[^:]+]]: memref<?xf32>)
// CHECK: %[[ZERO:.+]] = arith.constant dense<-0.000000e+00> : vector<8xf32>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[INIT:.+]] = memref.load %[[Y]][%[[I]]] : memref<?xf32>
// CHECK-NEXT: %[[ACC:.+]] = scf.for %[[J:.+]] = %{{.+}} to %[[END:.+]] step %{{.+}} iter_args(%[[V:.+]] = %[[ZERO]]) -> (vector<8xf32>) {
// CHECK-NEXT: %[[A:.+]] = vector.load %[[X]][%[[I]], %[[J]]] : memref<?x?xf32>, vector<8xf32>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[A]], %[[V]] : vector<8xf32>
// CHECK-NEXT: scf.yield %[[S]] : vector<8xf32>
// CHECK-NEXT: }
// CHECK-NEXT: %[[R:.+]] = vector.reduction <add>, %[[ACC]], %[[INIT]] fastmath<reassoc> : vector<8xf32> into f32
// CHECK-NEXT: %[[T:.+]] = scf.for %[[K:.+]] = %[[END]] to %{{.+}} step %{{.+}} iter_args(%[[W:.+]] = %[[R]]) -> (f32) {
// CHECK-NEXT: %[[B:.+]] = memref.load %[[X]][%[[I]], %[[K]]] : memref<?x?xf32>
// CHECK-NEXT: %[[U:.+]] = arith.addf %[[B]], %[[W]] : f32
// CHECK-NEXT: scf.yield %[[U]] : f32
// CHECK-NEXT: }
// CHECK-NEXT: memref.store %[[T]], %[[Y]][%[[I]]] : memref<?xf32>

// Unrolled, each copy has its own accumulator; they combine before the reduction.

// Reductions keep one accumulator per copy, interleaved or not.
// INTERLEAVE-LABEL: func.func @inner_reduction
// INTERLEAVE: scf.for {{.+}} -> (vector<16xf32>, vector<16xf32>) {
// UNROLL-LABEL: func.func @inner_reduction
// UNROLL: %[[ACC:.+]]:2 = scf.for {{.+}} -> (vector<16xf32>, vector<16xf32>) {
// UNROLL: %[[LAST:.+]] = scf.for {{.+}} iter_args(%{{.+}} = %[[ACC]]#0) -> (vector<16xf32>) {
// UNROLL: %[[BOTH:.+]] = arith.addf %[[LAST]], %[[ACC]]#1 : vector<16xf32>
// UNROLL-NEXT: vector.reduction <add>, %[[BOTH]], %{{.+}} fastmath<reassoc> : vector<16xf32> into f32

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @inner_reduction(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Two reductions in one op; maxsi is idempotent, so its accumulator starts
// as the init in every lane.

// CHECK-LABEL: func.func @two_reductions
// CHECK: %[[ZERO:.+]] = arith.constant dense<0> : vector<8xi32>
// CHECK: %[[M0:.+]] = memref.load %{{.+}} : memref<?xi32>
// CHECK-NEXT: %[[S0:.+]] = memref.load %{{.+}} : memref<?xi32>
// CHECK-NEXT: %[[MV:.+]] = vector.broadcast %[[M0]] : i32 to vector<8xi32>
// CHECK-NEXT: %[[ACC:.+]]:2 = scf.for {{.+}} iter_args(%[[P:.+]] = %[[MV]], %[[Q:.+]] = %[[ZERO]]) -> (vector<8xi32>, vector<8xi32>) {
// CHECK: arith.maxsi %[[P]], %{{.+}} : vector<8xi32>
// CHECK: arith.addi %{{.+}}, %[[Q]] : vector<8xi32>
// CHECK: vector.reduction <maxsi>, %[[ACC]]#0, %[[M0]] : vector<8xi32> into i32
// CHECK-NEXT: vector.reduction <add>, %[[ACC]]#1, %[[S0]] : vector<8xi32> into i32
// CHECK-NEXT: scf.for {{.+}} -> (i32, i32) {

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @two_reductions(%x: memref<?x?xi32>, %m: memref<?xi32>, %s: memref<?xi32>) {
  linalg.generic {indexing_maps = [#id2, #row, #row], iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xi32>) outs(%m, %s : memref<?xi32>, memref<?xi32>) {
  ^bb0(%a: i32, %mx: i32, %sum: i32):
    %0 = arith.maxsi %mx, %a : i32
    %1 = arith.addi %a, %sum : i32
    linalg.yield %0, %1 : i32, i32
  }
  return
}

// -----

// A reduction over an outer loop with the innermost loop parallel: the
// parallel loop is vectorized, the init read and written as vectors.

// CHECK-LABEL: func.func @outer_reduction
// CHECK-SAME: (%[[X:[^:]+]]: memref<?x?xf32>, %[[Y:[^:]+]]: memref<?xf32>)
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[A:.+]] = vector.load %[[X]][%[[I]], %[[J]]] : memref<?x?xf32>, vector<8xf32>
// CHECK-NEXT: %[[O:.+]] = vector.load %[[Y]][%[[J]]] : memref<?xf32>, vector<8xf32>
// CHECK-NEXT: %[[S:.+]] = arith.addf %[[A]], %[[O]] : vector<8xf32>
// CHECK-NEXT: vector.store %[[S]], %[[Y]][%[[J]]] : memref<?xf32>, vector<8xf32>

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#col = affine_map<(d0, d1) -> (d1)>
func.func @outer_reduction(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [#id2, #col], iterator_types = ["reduction", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.addf %a, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// linalg.index of the vectorized loop: the offset plus [0, 1, ...]; index
// lanes are 64 bits wide, so four of them fill 256 bits.

// CHECK-LABEL: func.func @index
// CHECK: %[[STEPS:.+]] = arith.constant dense<[0, 1, 2, 3]> : vector<4xindex>
// CHECK: scf.for %[[I:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: %[[B:.+]] = vector.broadcast %[[I]] : index to vector<4xindex>
// CHECK-NEXT: %[[IDX:.+]] = arith.addi %[[B]], %[[STEPS]] : vector<4xindex>
// CHECK-NEXT: %[[W:.+]] = arith.index_cast %[[IDX]] : vector<4xindex> to vector<4xi64>
// CHECK-NEXT: arith.sitofp %[[W]] : vector<4xi64> to vector<4xf32>
// CHECK: scf.for %[[J:.+]] = %{{.+}} to %{{.+}} step %{{.+}} {
// CHECK-NEXT: arith.index_cast %[[J]] : index to i64

func.func @index(%y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      outs(%y : memref<?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %w = arith.index_cast %i : index to i64
    %f = arith.sitofp %w : i64 to f32
    linalg.yield %f : f32
  }
  return
}

// -----

// Left alone: an innermost access that is transposed.

// CHECK-LABEL: func.func @transposed
// CHECK-NOT: vector.
// CHECK: linalg.generic

func.func @transposed(%x: memref<?x?xf32>, %y: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d1, d0)>, affine_map<(d0, d1) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?x?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Left alone: an innermost stride that is not known to be 1.

// CHECK-LABEL: func.func @dynamic_stride
// CHECK-NOT: vector.
// CHECK: linalg.generic

func.func @dynamic_stride(%x: memref<?xf32, strided<[?], offset: ?>>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32, strided<[?], offset: ?>>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    linalg.yield %a : f32
  }
  return
}

// -----

// Left alone: a body op that is neither arith nor math (a gather).

// CHECK-LABEL: func.func @gather
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: memref.load

func.func @gather(%x: memref<?xindex>, %t: memref<?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<?xindex>) outs(%y : memref<?xf32>) {
  ^bb0(%i: index, %o: f32):
    %v = memref.load %t[%i] : memref<?xf32>
    linalg.yield %v : f32
  }
  return
}

// -----

// Left alone: math.fpowi, which has no vector lowering.

// CHECK-LABEL: func.func @fpowi
// CHECK-NOT: vector.
// CHECK: linalg.generic

func.func @fpowi(%x: memref<?xf32>, %y: memref<?xf32>, %n: i32) {
  linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : memref<?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %p = math.fpowi %a, %n : f32, i32
    linalg.yield %p : f32
  }
  return
}

// -----

// Left alone: matmul-like contractions, whether or not the innermost access
// is contiguous (they belong to contraction tiling).

// CHECK-LABEL: func.func @matmul
// CHECK-NOT: vector.
// CHECK: linalg.matmul
// CHECK-LABEL: func.func @matmul_transpose_b
// CHECK-NOT: vector.
// CHECK: linalg.generic

func.func @matmul(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

func.func @matmul_transpose_b(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1, d2) -> (d0, d2)>, affine_map<(d0, d1, d2) -> (d1, d2)>,
                                   affine_map<(d0, d1, d2) -> (d0, d1)>],
                  iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%p: f32, %q: f32, %o: f32):
    %m = arith.mulf %p, %q : f32
    %s = arith.addf %o, %m : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: a reduction whose update is not a combiner (subf), and one
// whose accumulator is used by another op too.

// CHECK-LABEL: func.func @not_a_combiner
// CHECK-NOT: vector.
// CHECK: linalg.generic
// CHECK: linalg.generic

func.func @not_a_combiner(%x: memref<?x?xf32>, %y: memref<?xf32>) {
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.subf %o, %a : f32
    linalg.yield %s : f32
  }
  linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, affine_map<(d0, d1) -> (d0)>],
                  iterator_types = ["parallel", "reduction"]}
      ins(%x : memref<?x?xf32>) outs(%y : memref<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %o : f32
    %s = arith.addf %m, %o : f32
    linalg.yield %s : f32
  }
  return
}

// -----

// Left alone: ops on tensors (the pass runs after bufferization).

// CHECK-LABEL: func.func @on_tensors
// CHECK-NOT: vector.
// CHECK: linalg.generic

func.func @on_tensors(%x: tensor<?xf32>, %y: tensor<?xf32>) -> tensor<?xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]}
      ins(%x : tensor<?xf32>) outs(%y : tensor<?xf32>) {
  ^bb0(%a: f32, %o: f32):
    %s = arith.negf %a : f32
    linalg.yield %s : f32
  } -> tensor<?xf32>
  return %r : tensor<?xf32>
}
