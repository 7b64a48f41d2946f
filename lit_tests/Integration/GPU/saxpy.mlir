// REQUIRES: cuda-gpu
// RUN: mlkit-opt %s -p 'builtin.module(func.func(convert-linalg-to-loops),gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=isa},finalize-memref-to-llvm,convert-to-llvm,reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void -shared-libs=%S/libmlir_cuda_runtime.so,%S/libmlir_runner_utils.so \
// RUN: | filecheck %s

// A saxpy kernel over host memory registered with the GPU (gpu.host_register),
// as upstream's CUDA integration tests run theirs.

// CHECK: Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [8] strides = [1] data =
// CHECK-NEXT: [1,  3,  5,  7,  9,  11,  13,  15]
func.func @main() {
  %x = memref.alloc() : memref<8xf32>
  %y = memref.alloc() : memref<8xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c8 = arith.constant 8 : index
  %one = arith.constant 1.0 : f32
  %two = arith.constant 2.0 : f32
  scf.for %i = %c0 to %c8 step %c1 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    memref.store %f, %x[%i] : memref<8xf32>
    memref.store %one, %y[%i] : memref<8xf32>
  }
  %xu = memref.cast %x : memref<8xf32> to memref<*xf32>
  %yu = memref.cast %y : memref<8xf32> to memref<*xf32>
  gpu.host_register %xu : memref<*xf32>
  gpu.host_register %yu : memref<*xf32>
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %c1, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c8, %sy = %c1, %sz = %c1) {
    %xv = memref.load %x[%tx] : memref<8xf32>
    %yv = memref.load %y[%tx] : memref<8xf32>
    %p = arith.mulf %two, %xv : f32
    %s = arith.addf %p, %yv : f32
    memref.store %s, %y[%tx] : memref<8xf32>
    gpu.terminator
  }
  call @printMemrefF32(%yu) : (memref<*xf32>) -> ()
  memref.dealloc %x : memref<8xf32>
  memref.dealloc %y : memref<8xf32>
  return
}
func.func private @printMemrefF32(memref<*xf32>)
