// RUN: mlkit-opt %s -split-input-file -pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=1 gpu-thread-dims=1}))" | filecheck %s

// Outer loop to block x, inner to thread x; sizes are ub - lb (ceildivsi by a
// step other than 1); unmapped sizes are 1; ivs become lb + step * id.
// CHECK-LABEL: func.func @step_loops
// CHECK-SAME:  (%[[M:.*]]: memref<?x?xf32>, %[[N:.*]]: index)
// CHECK:       %[[C0:.*]] = arith.constant 0 : index
// CHECK:       %[[R0:.*]] = arith.subi %[[N]], %[[C0]] : index
// CHECK:       %[[C2:.*]] = arith.constant 2 : index
// CHECK:       %[[G:.*]] = arith.ceildivsi %[[R0]], %[[C2]] : index
// CHECK:       %[[C3:.*]] = arith.constant 3 : index
// CHECK:       %[[C10:.*]] = arith.constant 10 : index
// CHECK:       %[[B:.*]] = arith.subi %[[C10]], %[[C3]] : index
// CHECK-NOT:   arith.ceildivsi
// CHECK:       arith.constant 1 : index
// CHECK:       %[[ONE:.*]] = arith.constant 1 : index
// CHECK:       gpu.launch blocks(%[[BX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[G]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]]) threads(%[[TX:[^,]*]], %{{.*}}, %{{.*}}) in (%{{.*}} = %[[B]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK:         %[[MUL:.*]] = arith.muli %[[C2]], %[[BX]] : index
// CHECK:         %[[I:.*]] = arith.addi %[[C0]], %[[MUL]] : index
// CHECK:         %[[J:.*]] = arith.addi %[[C3]], %[[TX]] : index
// CHECK:         %[[V:.*]] = affine.load %[[M]][%[[I]], %[[J]]]
// CHECK:         affine.store %[[V]], %[[M]][%[[J]], %[[I]]]
// CHECK:         gpu.terminator
// CHECK-NOT:   affine.for
// CHECK:       return
func.func @step_loops(%m: memref<?x?xf32>, %n: index) {
  affine.for %i = 0 to %n step 2 {
    affine.for %j = 3 to 10 {
      %v = affine.load %m[%i, %j] : memref<?x?xf32>
      affine.store %v, %m[%j, %i] : memref<?x?xf32>
    }
  }
  return
}

// -----

// Bounds with several results expand to maxsi / minsi chains above the launch;
// the body of the innermost mapped loop keeps its own nested loop.
// CHECK-LABEL: func.func @minmax_bounds
// CHECK:       arith.maxsi
// CHECK:       arith.minsi
// CHECK:       gpu.launch
// CHECK:         affine.for
// CHECK:         gpu.terminator
func.func @minmax_bounds(%m: memref<?x?x?xf32>, %a: index, %b: index) {
  affine.for %i = max affine_map<()[s0, s1] -> (s0, s1)>()[%a, %b] to 64 {
    affine.for %j = 0 to min affine_map<()[s0] -> (s0, 32)>()[%b] {
      affine.for %k = 0 to 4 {
        %v = affine.load %m[%i, %j, %k] : memref<?x?x?xf32>
        affine.store %v, %m[%k, %j, %i] : memref<?x?x?xf32>
      }
    }
  }
  return
}

// -----

// Only top-level loops of a function are roots; other ops stay.
// CHECK-LABEL: func.func @two_nests
// CHECK-COUNT-2: gpu.launch
// CHECK-NOT:   affine.for
// CHECK:       return
func.func @two_nests(%m: memref<16x16xf32>, %x: f32) {
  affine.for %i = 0 to 16 {
    affine.for %j = 0 to 16 {
      affine.store %x, %m[%i, %j] : memref<16x16xf32>
    }
  }
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      %v = affine.load %m[%i, %j] : memref<16x16xf32>
      affine.store %v, %m[%j, %i] : memref<16x16xf32>
    }
  }
  return
}
