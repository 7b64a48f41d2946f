// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-map-reductions-to-blocks)' | filecheck %s
// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-map-reductions-to-blocks{threads=128 min-row=2000})' | filecheck %s --check-prefix=OPTS
// RUN: not mlkit-opt %s -split-input-file -p 'builtin.module(gpu-map-reductions-to-blocks{threads=2048})' -o /dev/null 2>&1 | filecheck %s --check-prefix=ERR

// gpu-map-reductions-to-blocks launches a parallel loop of reductions along
// rows with a thread block per result.

// OPTS-LABEL: func.func @row_sum(
// OPTS-NOT:     gpu.launch
// OPTS-LABEL: func.func @batched(
// OPTS:         %[[T:.*]] = arith.constant 128 : index
// OPTS:         gpu.launch {{.*}} threads(%{{.*}}, %{{.*}}, %{{.*}}) in (%{{.*}} = %[[T]],

// ERR: error: threads: 2048 threads per block, a GPU runs 1 to 1024

// A row sum: a block of 256 threads per row, each thread's part strided by
// the block size, gpu.all_reduce, then thread 0 adds the sum to the output.
func.func @row_sum(%a: memref<64x1000xf32>, %out: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c1000 = arith.constant 1000 : index
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c1000 step %c1 {
      %v = memref.load %a[%i, %j] : memref<64x1000xf32>
      %acc = memref.load %out[%i] : memref<64xf32>
      %s = arith.addf %v, %acc : f32
      memref.store %s, %out[%i] : memref<64xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @row_sum(
// CHECK-SAME:      %[[A:.*]]: memref<64x1000xf32>, %[[OUT:.*]]: memref<64xf32>)
// CHECK:         %[[THREADS:.*]] = arith.constant 256 : index
// CHECK:         gpu.launch blocks(%[[BX:.*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %c64{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) threads(%[[TX:.*]], %{{.*}}, %{{.*}}) in (%[[SX:.*]] = %[[THREADS]],
// CHECK:           %[[SCALED:.*]] = arith.muli %[[BX]], %{{.*}} : index
// CHECK-NEXT:      %[[I:.*]] = arith.addi %[[SCALED]], %{{.*}} : index
// CHECK-NEXT:      %[[OFFSET:.*]] = arith.muli %[[TX]], %{{.*}} : index
// CHECK-NEXT:      %[[START:.*]] = arith.addi %{{.*}}, %[[OFFSET]] : index
// CHECK-NEXT:      %[[STRIDE:.*]] = arith.muli %{{.*}}, %[[SX]] : index
// CHECK-NEXT:      %[[ZERO:.*]] = arith.constant -0.000000e+00 : f32
// CHECK-NEXT:      %[[PART:.*]] = scf.for %[[J:.*]] = %[[START]] to %{{.*}} step %[[STRIDE]] iter_args(%[[P:.*]] = %[[ZERO]]) -> (f32) {
// CHECK-NEXT:        %[[V:.*]] = memref.load %[[A]][%[[I]], %[[J]]] : memref<64x1000xf32>
// CHECK-NEXT:        %[[S:.*]] = arith.addf %[[V]], %[[P]] : f32
// CHECK-NEXT:        scf.yield %[[S]] : f32
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[TOTAL:.*]] = gpu.all_reduce add %[[PART]] uniform {
// CHECK-NEXT:      } : (f32) -> f32
// CHECK:           %[[FIRST:.*]] = arith.cmpi eq, %[[TX]], %{{.*}} : index
// CHECK-NEXT:      scf.if %[[FIRST]] {
// CHECK-NEXT:        %[[OLD:.*]] = memref.load %[[OUT]][%[[I]]] : memref<64xf32>
// CHECK-NEXT:        %[[NEW:.*]] = arith.addf %[[TOTAL]], %[[OLD]] : f32
// CHECK-NEXT:        memref.store %[[NEW]], %[[OUT]][%[[I]]] : memref<64xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      gpu.terminator
// CHECK-NOT:     scf.parallel

// -----

// Two parallel dimensions, the inner one on x; a dynamic row; the max of squares.
func.func @batched(%a: memref<?x?x?xf32>, %out: memref<?x?xf32>, %b: index, %m: index, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.parallel (%i, %k) = (%c0, %c0) to (%b, %m) step (%c1, %c1) {
    scf.for %j = %c0 to %n step %c1 {
      %v = memref.load %a[%i, %k, %j] : memref<?x?x?xf32>
      %q = arith.mulf %v, %v : f32
      %acc = memref.load %out[%i, %k] : memref<?x?xf32>
      %s = arith.maximumf %acc, %q : f32
      memref.store %s, %out[%i, %k] : memref<?x?xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @batched(
// CHECK-SAME:      %{{.*}}: memref<?x?x?xf32>, %{{.*}}: memref<?x?xf32>, %[[B:.*]]: index, %[[M:.*]]: index, %[[N:.*]]: index)
// CHECK:         %[[BD:.*]] = arith.subi %[[B]], %{{.*}} : index
// CHECK-NEXT:    %[[GY:.*]] = arith.ceildivsi %[[BD]], %{{.*}} : index
// CHECK-NEXT:    %[[MD:.*]] = arith.subi %[[M]], %{{.*}} : index
// CHECK-NEXT:    %[[GX:.*]] = arith.ceildivsi %[[MD]], %{{.*}} : index
// CHECK:         gpu.launch blocks({{.*}}) in (%{{.*}} = %[[GX]], %{{.*}} = %[[GY]], %{{.*}} = %{{.*}}) threads
// CHECK:           arith.constant 0xFF800000 : f32
// CHECK:           scf.for %{{.*}} = %{{.*}} to %[[N]] step
// CHECK:             arith.mulf
// CHECK-NEXT:        arith.maximumf
// CHECK:           gpu.all_reduce maximumf
// CHECK:           arith.maximumf

// -----

// Left alone: a column sum (a thread per column reads coalesced), a row
// shorter than 128, a result that is not one combiner of the accumulator.
func.func @left_alone(%a: memref<1000x64xf32>, %out: memref<64xf32>, %short: memref<64x100xf32>, %o2: memref<64xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c64 = arith.constant 64 : index
  %c100 = arith.constant 100 : index
  %c1000 = arith.constant 1000 : index
  %half = arith.constant 0.5 : f32
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c1000 step %c1 {
      %v = memref.load %a[%j, %i] : memref<1000x64xf32>
      %acc = memref.load %out[%i] : memref<64xf32>
      %s = arith.addf %v, %acc : f32
      memref.store %s, %out[%i] : memref<64xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c100 step %c1 {
      %v = memref.load %short[%i, %j] : memref<64x100xf32>
      %acc = memref.load %o2[%i] : memref<64xf32>
      %s = arith.addf %v, %acc : f32
      memref.store %s, %o2[%i] : memref<64xf32>
    }
  }
  scf.parallel (%i) = (%c0) to (%c64) step (%c1) {
    scf.for %j = %c0 to %c1000 step %c1 {
      %v = memref.load %a[%i, %j] : memref<1000x64xf32>
      %acc = memref.load %out[%i] : memref<64xf32>
      %h = arith.mulf %acc, %half : f32
      %s = arith.addf %v, %h : f32
      memref.store %s, %out[%i] : memref<64xf32>
    }
  }
  return
}

// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     gpu.launch
// CHECK-COUNT-3: scf.parallel
