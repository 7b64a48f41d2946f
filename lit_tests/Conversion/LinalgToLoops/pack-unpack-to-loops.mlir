// RUN: mlkit-opt %s -split-input-file -convert-linalg-pack-unpack-to-loops | filecheck %s

// Whole tiles: one loop per packed dimension, each element loaded from
// outer * tile + inner, no bounds checks.
// CHECK-LABEL: func.func @pack_whole_tiles
// CHECK-SAME:  (%[[SRC:[^:]+]]: memref<8x6xf32>, %[[DST:[^:]+]]: memref<2x3x4x2xf32>)
// CHECK-DAG:   %[[C0:.+]] = arith.constant 0 : index
// CHECK-DAG:   %[[C1:.+]] = arith.constant 1 : index
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C3:.+]] = arith.constant 3 : index
// CHECK-DAG:   %[[C4:.+]] = arith.constant 4 : index
// CHECK:       scf.for %[[I:.+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:    scf.for %[[J:.+]] = %[[C0]] to %[[C3]] step %[[C1]] {
// CHECK-NEXT:      scf.for %[[II:.+]] = %[[C0]] to %[[C4]] step %[[C1]] {
// CHECK-NEXT:        scf.for %[[JJ:.+]] = %[[C0]] to %[[C2]] step %[[C1]] {
// CHECK-NEXT:          %[[R0:.+]] = arith.muli %[[I]], %[[C4]] : index
// CHECK-NEXT:          %[[R:.+]] = arith.addi %[[R0]], %[[II]] : index
// CHECK-NEXT:          %[[S0:.+]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:          %[[S:.+]] = arith.addi %[[S0]], %[[JJ]] : index
// CHECK-NEXT:          %[[V:.+]] = memref.load %[[SRC]][%[[R]], %[[S]]] : memref<8x6xf32>
// CHECK-NEXT:          memref.store %[[V]], %[[DST]][%[[I]], %[[J]], %[[II]], %[[JJ]]] : memref<2x3x4x2xf32>
// CHECK-NOT:   linalg.pack
func.func @pack_whole_tiles(%src: memref<8x6xf32>, %dst: memref<2x3x4x2xf32>) {
  linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %dst : memref<8x6xf32> -> memref<2x3x4x2xf32>
  return
}

// -----

// Partial tiles: elements past the source are the padding value. With
// outer_dims_perm = [1, 0] the first loop walks the source's columns; with
// inner_dims_pos = [1, 0] the first tile index does too.
// CHECK-LABEL: func.func @pack_padded_transposed
// CHECK-SAME:  (%[[SRC:[^:]+]]: memref<5x7xf32>, %[[DST:[^:]+]]: memref<4x3x2x2xf32>, %[[PAD:[^:]+]]: f32)
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG:   %[[C7:.+]] = arith.constant 7 : index
// CHECK:       scf.for %[[J:[^ ]+]] =
// CHECK-NEXT:    scf.for %[[I:[^ ]+]] =
// CHECK-NEXT:      scf.for %[[JJ:[^ ]+]] =
// CHECK-NEXT:        scf.for %[[II:[^ ]+]] =
// CHECK-NEXT:          %[[R0:.+]] = arith.muli %[[I]], %[[C2]] : index
// CHECK-NEXT:          %[[R:.+]] = arith.addi %[[R0]], %[[II]] : index
// CHECK-NEXT:          %[[RIN:.+]] = arith.cmpi ult, %[[R]], %[[C5]] : index
// CHECK-NEXT:          %[[S0:.+]] = arith.muli %[[J]], %[[C2]] : index
// CHECK-NEXT:          %[[S:.+]] = arith.addi %[[S0]], %[[JJ]] : index
// CHECK-NEXT:          %[[SIN:.+]] = arith.cmpi ult, %[[S]], %[[C7]] : index
// CHECK-NEXT:          %[[IN:.+]] = arith.andi %[[RIN]], %[[SIN]] : i1
// CHECK-NEXT:          %[[V:.+]] = scf.if %[[IN]] -> (f32) {
// CHECK-NEXT:            %[[L:.+]] = memref.load %[[SRC]][%[[R]], %[[S]]] : memref<5x7xf32>
// CHECK-NEXT:            scf.yield %[[L]] : f32
// CHECK-NEXT:          } else {
// CHECK-NEXT:            scf.yield %[[PAD]] : f32
// CHECK-NEXT:          }
// CHECK-NEXT:          memref.store %[[V]], %[[DST]][%[[J]], %[[I]], %[[JJ]], %[[II]]] : memref<4x3x2x2xf32>
func.func @pack_padded_transposed(%src: memref<5x7xf32>, %dst: memref<4x3x2x2xf32>, %pad: f32) {
  linalg.pack %src padding_value(%pad : f32) outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %dst : memref<5x7xf32> -> memref<4x3x2x2xf32>
  return
}

// -----

// A dynamic tile may run past the source; without a padding value those
// elements are not written.
// CHECK-LABEL: func.func @pack_dynamic_tile
// CHECK-SAME:  (%[[SRC:[^:]+]]: memref<?x8xf32>, %[[DST:[^:]+]]: memref<?x8x?xf32>, %[[T:[^:]+]]: index)
// CHECK-DAG:   %[[N:.+]] = memref.dim %[[SRC]], %{{.+}} : memref<?x8xf32>
// CHECK-DAG:   %[[OUTER:.+]] = memref.dim %[[DST]], %{{.+}} : memref<?x8x?xf32>
// CHECK-DAG:   %[[TILE:.+]] = memref.dim %[[DST]], %{{.+}} : memref<?x8x?xf32>
// CHECK:       scf.for %[[I:[^ ]+]] = %{{.+}} to %[[OUTER]]
// CHECK-NEXT:    scf.for %[[J:[^ ]+]] =
// CHECK-NEXT:      scf.for %[[II:[^ ]+]] = %{{.+}} to %[[TILE]]
// CHECK-NEXT:        %[[R0:.+]] = arith.muli %[[I]], %[[T]] : index
// CHECK-NEXT:        %[[R:.+]] = arith.addi %[[R0]], %[[II]] : index
// CHECK-NEXT:        %[[IN:.+]] = arith.cmpi ult, %[[R]], %[[N]] : index
// CHECK-NEXT:        scf.if %[[IN]] {
// CHECK-NEXT:          %[[V:.+]] = memref.load %[[SRC]][%[[R]], %[[J]]] : memref<?x8xf32>
// CHECK-NEXT:          memref.store %[[V]], %[[DST]][%[[I]], %[[J]], %[[II]]] : memref<?x8x?xf32>
// CHECK-NEXT:        }
func.func @pack_dynamic_tile(%src: memref<?x8xf32>, %dst: memref<?x8x?xf32>, %t: index) {
  linalg.pack %src inner_dims_pos = [0] inner_tiles = [%t] into %dst : memref<?x8xf32> -> memref<?x8x?xf32>
  return
}

// -----

// Unpack loops over the unpacked buffer: outer index i / tile, tile index
// i % tile; the padding of partial tiles is never read.
// CHECK-LABEL: func.func @unpack
// CHECK-SAME:  (%[[SRC:[^:]+]]: memref<4x3x2x2xf32>, %[[DST:[^:]+]]: memref<5x7xf32>)
// CHECK-DAG:   %[[C2:.+]] = arith.constant 2 : index
// CHECK-DAG:   %[[C5:.+]] = arith.constant 5 : index
// CHECK-DAG:   %[[C7:.+]] = arith.constant 7 : index
// CHECK:       scf.for %[[I:[^ ]+]] = %{{.+}} to %[[C5]]
// CHECK-NEXT:    scf.for %[[J:[^ ]+]] = %{{.+}} to %[[C7]]
// CHECK-NEXT:      %[[JO:.+]] = arith.divui %[[J]], %[[C2]] : index
// CHECK-NEXT:      %[[JI:.+]] = arith.remui %[[J]], %[[C2]] : index
// CHECK-NEXT:      %[[IO:.+]] = arith.divui %[[I]], %[[C2]] : index
// CHECK-NEXT:      %[[II:.+]] = arith.remui %[[I]], %[[C2]] : index
// CHECK-NEXT:      %[[V:.+]] = memref.load %[[SRC]][%[[JO]], %[[IO]], %[[JI]], %[[II]]] : memref<4x3x2x2xf32>
// CHECK-NEXT:      memref.store %[[V]], %[[DST]][%[[I]], %[[J]]] : memref<5x7xf32>
// CHECK-NOT:   linalg.unpack
func.func @unpack(%src: memref<4x3x2x2xf32>, %dst: memref<5x7xf32>) {
  linalg.unpack %src outer_dims_perm = [1, 0] inner_dims_pos = [1, 0] inner_tiles = [2, 2] into %dst : memref<4x3x2x2xf32> -> memref<5x7xf32>
  return
}

// -----

// CHECK-LABEL: func.func @unpack_dynamic_tile
// CHECK-SAME:  (%[[SRC:[^:]+]]: memref<?x8x?xf32>, %[[DST:[^:]+]]: memref<?x8xf32>, %[[T:[^:]+]]: index)
// CHECK:         %[[IO:.+]] = arith.divui %{{.+}}, %[[T]] : index
// CHECK-NEXT:    %[[II:.+]] = arith.remui %{{.+}}, %[[T]] : index
// CHECK-NEXT:    memref.load %[[SRC]][%[[IO]], %{{.+}}, %[[II]]] : memref<?x8x?xf32>
func.func @unpack_dynamic_tile(%src: memref<?x8x?xf32>, %dst: memref<?x8xf32>, %t: index) {
  linalg.unpack %src inner_dims_pos = [0] inner_tiles = [%t] into %dst : memref<?x8x?xf32> -> memref<?x8xf32>
  return
}

// -----

// Left alone: tensors (bufferize first).
// CHECK-LABEL: func.func @on_tensors
// CHECK:       linalg.pack %{{.+}} inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %{{.+}} : tensor<8x6xf32> -> tensor<2x3x4x2xf32>
// CHECK-NOT:   scf.for
func.func @on_tensors(%src: tensor<8x6xf32>, %dst: tensor<2x3x4x2xf32>) -> tensor<2x3x4x2xf32> {
  %0 = linalg.pack %src inner_dims_pos = [0, 1] inner_tiles = [4, 2] into %dst : tensor<8x6xf32> -> tensor<2x3x4x2xf32>
  return %0 : tensor<2x3x4x2xf32>
}
