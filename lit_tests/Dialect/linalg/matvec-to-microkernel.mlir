// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(linalg-matmul-to-microkernel{vector-bits=512})' | filecheck %s
// RUN: mlkit-opt %s --split-input-file --mcpu=x86-64-v3 -p 'builtin.module(linalg-matmul-to-microkernel)' | filecheck %s --check-prefix=AVX2

// matvec on a row-major matrix: 8 rows at a time, each with a vector
// accumulator fed by whole vectors of its row and of x, reduced once; the
// last 100 mod 16 columns with scalars, then added to y.

// CHECK-LABEL: func.func @matvec
// CHECK-SAME: (%[[A:[^:]+]]: memref<64x100xf32>, %[[X:[^:]+]]: memref<100xf32>, %[[Y:[^:]+]]: memref<64xf32>)
// CHECK: scf.for {{.+}} iter_args({{.+}}) -> (vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>, vector<16xf32>)
// CHECK: vector.load %[[X]][{{.+}}] : memref<100xf32>, vector<16xf32>
// CHECK-COUNT-8: vector.fma
// CHECK: scf.yield
// CHECK-COUNT-8: vector.reduction <add>, {{.+}} fastmath<reassoc> : vector<16xf32> into f32
// CHECK: scf.for {{.+}} -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: memref.load %[[A]]
// CHECK: memref.store {{.+}}, %[[Y]]
// CHECK-NOT: linalg.matvec

// AVX2-LABEL: func.func @matvec
// AVX2: vector.fma {{.+}} : vector<8xf32>
func.func @matvec(%a: memref<64x100xf32>, %x: memref<100xf32>, %y: memref<64xf32>) {
  linalg.matvec ins(%a, %x : memref<64x100xf32>, memref<100xf32>) outs(%y : memref<64xf32>)
  return
}

// -----

// vecmat (y[n] += x[k] a[k][n]): 8 rows of a streamed side by side into a
// strip of 4 vectors of y, one broadcast of x per row; dynamic sizes round
// down to the strip, a vector and a scalar at a time.

// CHECK-LABEL: func.func @vecmat
// CHECK-SAME: (%[[X:[^:]+]]: memref<?xf64>, %[[A:[^:]+]]: memref<?x?xf64>, %[[Y:[^:]+]]: memref<?xf64>)
// CHECK-DAG: %[[EIGHT:.+]] = arith.constant 8 : index
// CHECK: scf.for %{{.+}} = %{{.+}} to %{{.+}} step %[[EIGHT]]
// CHECK-COUNT-8: vector.broadcast {{.+}} : f64 to vector<8xf64>
// CHECK: vector.load %[[Y]][{{.+}}] : memref<?xf64>, vector<8xf64>
// CHECK-COUNT-8: vector.fma {{.+}} : vector<8xf64>
// CHECK: vector.store {{.+}}, %[[Y]][{{.+}}] : memref<?xf64>, vector<8xf64>
// CHECK: memref.store {{.+}}, %[[Y]]
// CHECK-NOT: vector.reduction
// CHECK-NOT: linalg.vecmat

// AVX2-LABEL: func.func @vecmat
// AVX2: vector.fma {{.+}} : vector<4xf64>
func.func @vecmat(%x: memref<?xf64>, %a: memref<?x?xf64>, %y: memref<?xf64>) {
  linalg.vecmat ins(%x, %a : memref<?xf64>, memref<?x?xf64>) outs(%y : memref<?xf64>)
  return
}

// -----

// Left alone: an integer matvec, and a matrix whose rows are strided (no
// whole vectors to load along either loop).

// CHECK-LABEL: func.func @integer
// CHECK: linalg.matvec
func.func @integer(%a: memref<8x8xi32>, %x: memref<8xi32>, %y: memref<8xi32>) {
  linalg.matvec ins(%a, %x : memref<8x8xi32>, memref<8xi32>) outs(%y : memref<8xi32>)
  return
}

// CHECK-LABEL: func.func @strided
// CHECK: linalg.matvec
// CHECK-NOT: vector.fma
func.func @strided(%a: memref<8x8xf32, strided<[16, 2]>>, %x: memref<8xf32>, %y: memref<8xf32>) {
  linalg.matvec ins(%a, %x : memref<8x8xf32, strided<[16, 2]>>, memref<8xf32>) outs(%y : memref<8xf32>)
  return
}
