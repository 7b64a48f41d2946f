// REQUIRES: ptxas
// convert-gpu-to-nvvm rewrites uniform gpu.all_reduce ops first, as upstream
// does (AllReduceLowering): shuffles within each subgroup, the subgroups'
// results through a workgroup buffer of 32 values, two barriers.
// RUN: mlkit-opt %s -p 'builtin.module(gpu.module(convert-gpu-to-nvvm))' | filecheck %s --check-prefix=NVVM
// RUN: mlkit-opt %s -p 'builtin.module(nvvm-attach-target{chip=sm_90 O=3},gpu.module(convert-gpu-to-nvvm),canonicalize,cse,reconcile-unrealized-casts)' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mlkit-opt %s -p 'builtin.module(nvvm-attach-target{chip=sm_80},gpu.module(convert-gpu-to-nvvm),canonicalize,cse,reconcile-unrealized-casts)' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin

// NVVM-LABEL: llvm.func @sum(
// NVVM-NOT:     gpu.all_reduce
// NVVM:         nvvm.shfl.sync bfly
// NVVM:         nvvm.barrier
// NVVM:         nvvm.barrier
// NVVM-LABEL: llvm.func @sum64(
// NVVM-COUNT-2: nvvm.shfl.sync bfly %{{.*}} : i32 -> !llvm.struct<(i32, i1)>
// NVVM-LABEL: llvm.func @custom(
// NVVM-NOT:     gpu.all_reduce

// CHECK: .visible .entry sum(
// CHECK: .shared .align 4 .b8 __wg_sum_0[128];
// CHECK: shfl.sync.bfly.b32
// CHECK: bar.sync 0;
// A 64-bit value is shuffled as two 32-bit halves:
// CHECK: .visible .entry sum64(
// CHECK: .shared .align 8 .b8 __wg_sum64_0[256];
// CHECK: shfl.sync.bfly.b32
// CHECK: add.rn.f64
// CHECK: .visible .entry custom(
// CHECK: .shared .align 4 .b8 __wg_custom_0[128];
// CHECK: max.s32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @sum(%x: memref<?xf32>, %out: memref<1xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %x[%tx] : memref<?xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      %c0 = arith.constant 0 : index
      memref.store %s, %out[%c0] : memref<1xf32>
      gpu.return
    }
    gpu.func @sum64(%x: memref<?xf64>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %x[%tx] : memref<?xf64>
      %s = gpu.all_reduce add %v uniform {} : (f64) -> f64
      memref.store %s, %x[%tx] : memref<?xf64>
      gpu.return
    }
    gpu.func @custom(%x: memref<?xi32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %x[%tx] : memref<?xi32>
      %s = gpu.all_reduce %v uniform {
      ^bb0(%a: i32, %b: i32):
        %m = arith.maxsi %a, %b : i32
        gpu.yield %m : i32
      } : (i32) -> i32
      memref.store %s, %x[%tx] : memref<?xi32>
      gpu.return
    }
  }
}
