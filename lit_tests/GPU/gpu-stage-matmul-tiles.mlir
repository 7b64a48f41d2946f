// REQUIRES: ptxas
// gpu-stage-matmul-tiles launches a matmul on buffers with a block per tile
// of C whose threads stage tiles of A and B in workgroup memory.
// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-stage-matmul-tiles)' | filecheck %s
// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-stage-matmul-tiles{tile-m=32 tile-n=32 tile-k=8 block-x=16 block-y=8})' | filecheck %s --check-prefix=SMALL

// CHECK-LABEL: func.func @matmul(
// CHECK:         gpu.launch blocks({{.*}}) in ({{.*}} = %{{.*}}, {{.*}} = %{{.*}}, {{.*}} = %{{.*}}) threads({{.*}}) in ({{.*}} = %c16, {{.*}} = %c16{{.*}}, {{.*}}) workgroup(%{{.*}} : memref<64x16xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>) {
// CHECK:           scf.for {{.*}} iter_args
// CHECK:             memref.store {{.*}} : memref<64x16xf32, #gpu.address_space<workgroup>>
// CHECK:             memref.store {{.*}} : memref<16x64xf32, #gpu.address_space<workgroup>>
// CHECK:             gpu.barrier
// CHECK:             scf.for
// CHECK-COUNT-16:      math.fma
// CHECK:             gpu.barrier
// CHECK:           scf.if
// CHECK:             memref.load %arg2
// CHECK-NOT:     linalg.matmul
// SMALL-LABEL: func.func @matmul(
// SMALL:         workgroup(%{{.*}} : memref<32x8xf32, #gpu.address_space<workgroup>>, %{{.*}} : memref<8x32xf32, #gpu.address_space<workgroup>>)
// SMALL-COUNT-8: math.fma
func.func @matmul(%A: memref<33x50xf32>, %B: memref<50x20xf32>, %C: memref<33x20xf32>) {
  linalg.matmul ins(%A, %B : memref<33x50xf32>, memref<50x20xf32>) outs(%C : memref<33x20xf32>)
  return
}

// -----

// The generic form, of dynamic sizes: the grid from memref.dim.
// CHECK-LABEL: func.func @generic(
// CHECK:         memref.dim
// CHECK:         arith.ceildivsi
// CHECK:         gpu.launch
// CHECK-NOT:     linalg.generic
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @generic(%A: memref<?x?xf64>, %B: memref<?x?xf64>, %C: memref<?x?xf64>) {
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%A, %B : memref<?x?xf64>, memref<?x?xf64>) outs(%C : memref<?x?xf64>) {
  ^bb0(%x: f64, %y: f64, %acc: f64):
    %m = arith.mulf %x, %y : f64
    %s = arith.addf %acc, %m : f64
    linalg.yield %s : f64
  }
  return
}

// -----

// Left alone: integers, tensors, and a body that is not a multiply-add.
// CHECK-LABEL: func.func @left_alone(
// CHECK-NOT:     gpu.launch
// CHECK:         linalg.matmul
// CHECK:         linalg.matmul
// CHECK:         linalg.generic
#a = affine_map<(i, j, k) -> (i, k)>
#b = affine_map<(i, j, k) -> (k, j)>
#c = affine_map<(i, j, k) -> (i, j)>
func.func @left_alone(%A: memref<8x8xi32>, %C: memref<8x8xi32>, %T: tensor<8x8xf32>, %F: memref<8x8xf32>) -> tensor<8x8xf32> {
  linalg.matmul ins(%A, %A : memref<8x8xi32>, memref<8x8xi32>) outs(%C : memref<8x8xi32>)
  %r = linalg.matmul ins(%T, %T : tensor<8x8xf32>, tensor<8x8xf32>) outs(%T : tensor<8x8xf32>) -> tensor<8x8xf32>
  linalg.generic {indexing_maps = [#a, #b, #c], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%F, %F : memref<8x8xf32>, memref<8x8xf32>) outs(%F : memref<8x8xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %m = arith.mulf %x, %y : f32
    %s = arith.maximumf %acc, %m : f32
    linalg.yield %s : f32
  }
  return %r : tensor<8x8xf32>
}
