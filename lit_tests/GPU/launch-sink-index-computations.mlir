// gpu-launch-sink-index-computations: constants, memref.dim, arith.select and
// arith.cmpi the launch body uses are recomputed inside it (with their own
// operands' definitions where those qualify); other ops stay outside, and
// uses outside the launch keep the originals.
// RUN: mlkit-opt %s -p 'builtin.module(gpu-launch-sink-index-computations)' --split-input-file --allow-unregistered-dialect | filecheck %s

// CHECK-LABEL: func.func @sink
// CHECK-SAME: (%[[M:.*]]: memref<?xf32>, %[[X:.*]]: index)
// CHECK:        %[[SEL0:.*]] = arith.select
// CHECK:        %[[ADD:.*]] = arith.addi %[[X]], %[[X]]
// CHECK:        gpu.launch
// CHECK-NEXT:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:     %[[DIM:.*]] = memref.dim %[[M]], %[[C0]]
// CHECK-NEXT:     %[[CMP:.*]] = arith.cmpi slt, %[[DIM]], %[[X]]
// CHECK-NEXT:     %[[SEL:.*]] = arith.select %[[CMP]], %[[DIM]], %[[X]]
// CHECK-NEXT:     memref.load %[[M]]
// CHECK-NEXT:     "test.use"(%[[SEL]], %[[ADD]],
// CHECK:        "test.use"(%[[SEL0]]) : (index) -> ()
func.func @sink(%m: memref<?xf32>, %x: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %dim = memref.dim %m, %c0 : memref<?xf32>
  %cmp = arith.cmpi slt, %dim, %x : index
  %sel = arith.select %cmp, %dim, %x : index
  %add = arith.addi %x, %x : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<?xf32>
    "test.use"(%sel, %add, %v, %x) : (index, index, f32, index) -> ()
    gpu.terminator
  }
  "test.use"(%sel) : (index) -> ()
  return
}

// -----

// An operand defined by an op that is not sunk, and not used by the body,
// keeps its user outside.
// CHECK-LABEL: func.func @not_available
// CHECK:        %[[ADD:.*]] = arith.addi
// CHECK:        %[[CMP:.*]] = arith.cmpi eq, %[[ADD]]
// CHECK:        gpu.launch
// CHECK-NEXT:     "test.use"(%[[CMP]])
func.func @not_available(%x: index) {
  %c1 = arith.constant 1 : index
  %add = arith.addi %x, %x : index
  %cmp = arith.cmpi eq, %add, %c1 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c1, %sy = %c1, %sz = %c1) {
    "test.use"(%cmp) : (i1) -> ()
    gpu.terminator
  }
  return
}
