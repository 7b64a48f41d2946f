// RUN: mlkit-opt %s -pass-pipeline="builtin.module(func.func(convert-affine-for-to-gpu{gpu-block-dims=2 gpu-thread-dims=1}))" | filecheck %s

// Two loops to blocks x and y, the third to thread x; the fourth loop stays
// in the kernel body.
// CHECK-LABEL: func.func @three_mapped
// CHECK:       gpu.launch blocks(%[[BX:[^,]*]], %[[BY:[^,]*]], %{{[^)]*}}) in (%{{.*}} = %[[X:[^,]*]], %{{.*}} = %[[Y:[^,]*]], %{{.*}} = %[[ONE:[^)]*]]) threads(%[[TX:[^,]*]], %{{[^)]*}}) in (%{{.*}} = %[[T:[^,]*]], %{{.*}} = %[[ONE]], %{{.*}} = %[[ONE]])
// CHECK:         %[[I:.*]] = arith.addi %{{.*}}, %[[BX]] : index
// CHECK:         %[[J:.*]] = arith.addi %{{.*}}, %[[BY]] : index
// CHECK:         %[[K:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// CHECK:         affine.for %[[L:.*]] = 0 to 4
// CHECK:           affine.store %{{.*}}, %{{.*}}[%[[I]], %[[J]], %[[K]], %[[L]]]
// CHECK:         gpu.terminator
func.func @three_mapped(%m: memref<8x8x8x4xf32>, %x: f32) {
  affine.for %i = 0 to 8 {
    affine.for %j = 0 to 8 {
      affine.for %k = 0 to 8 {
        affine.for %l = 0 to 4 {
          affine.store %x, %m[%i, %j, %k, %l] : memref<8x8x8x4xf32>
        }
      }
    }
  }
  return
}
