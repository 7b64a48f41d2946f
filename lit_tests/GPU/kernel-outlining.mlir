// RUN: mlkit-opt %s -gpu-kernel-outlining | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(gpu-kernel-outlining)' | filecheck %s

// gpu.launch becomes a gpu.module @<func>_kernel holding a kernel gpu.func with
// the launch's values as arguments, its ids rebuilt inside, known sizes recorded,
// and a gpu.launch_func in its place.
// CHECK: module attributes {gpu.container_module} {
// CHECK-LABEL: func.func @scale(%arg0: memref<16xf32>, %arg1: f32)
// CHECK: gpu.launch_func  @scale_kernel::@scale_kernel blocks in (%c1, %c1, %c1) threads in (%c16, %c1, %c1)  args(%arg0 : memref<16xf32>, %arg1 : f32)
// CHECK: gpu.module @scale_kernel {
// CHECK-NEXT: gpu.func @scale_kernel(%arg0: memref<16xf32>, %arg1: f32) kernel attributes {known_block_size = array<i32: 16, 1, 1>, known_grid_size = array<i32: 1, 1, 1>}
// CHECK: %thread_id_x = gpu.thread_id x
// CHECK: memref.load %arg0[%thread_id_x]
// CHECK: gpu.return
func.func @scale(%m: memref<16xf32>, %s: f32) {
  %c1 = arith.constant 1 : index
  %c16 = arith.constant 16 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c16, %sy = %c1, %sz = %c1) {
    %v = memref.load %m[%tx] : memref<16xf32>
    %p = arith.mulf %v, %s : f32
    memref.store %p, %m[%tx] : memref<16xf32>
    gpu.terminator
  }
  return
}
