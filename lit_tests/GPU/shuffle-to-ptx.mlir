// REQUIRES: ptxas
// A warp reduction with butterfly shuffles, and each shuffle mode, with and
// without the validity bit.
// RUN: mlkit-opt %s -p 'builtin.module(nvvm-attach-target{chip=sm_90},gpu.module(convert-gpu-to-nvvm),canonicalize,cse,reconcile-unrealized-casts,gpu-module-to-binary{format=isa})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mlkit-opt %s -p 'builtin.module(nvvm-attach-target{chip=sm_80},gpu.module(convert-gpu-to-nvvm),canonicalize,cse,reconcile-unrealized-casts)' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin

// CHECK: .visible .entry warp_sum(
// CHECK-COUNT-5: shfl.sync.bfly.b32
// CHECK: .visible .entry modes(
// CHECK-DAG: shfl.sync.up.b32
// CHECK-DAG: shfl.sync.down.b32
// CHECK-DAG: shfl.sync.idx.b32
// CHECK-DAG: selp

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp_sum(%data: memref<32xf32>) kernel {
      %lane = gpu.lane_id
      %v0 = memref.load %data[%lane] : memref<32xf32>
      %w = arith.constant 32 : i32
      %c16 = arith.constant 16 : i32
      %c8 = arith.constant 8 : i32
      %c4 = arith.constant 4 : i32
      %c2 = arith.constant 2 : i32
      %c1 = arith.constant 1 : i32
      %s16, %p16 = gpu.shuffle xor %v0, %c16, %w : f32
      %v1 = arith.addf %v0, %s16 : f32
      %s8, %p8 = gpu.shuffle xor %v1, %c8, %w : f32
      %v2 = arith.addf %v1, %s8 : f32
      %s4, %p4 = gpu.shuffle xor %v2, %c4, %w : f32
      %v3 = arith.addf %v2, %s4 : f32
      %s2, %p2 = gpu.shuffle xor %v3, %c2, %w : f32
      %v4 = arith.addf %v3, %s2 : f32
      %s1, %p1 = gpu.shuffle xor %v4, %c1, %w : f32
      %v5 = arith.addf %v4, %s1 : f32
      memref.store %v5, %data[%lane] : memref<32xf32>
      gpu.return
    }
    gpu.func @modes(%data: memref<32xi32>) kernel {
      %tid = gpu.thread_id x
      %v = memref.load %data[%tid] : memref<32xi32>
      %w = arith.constant 16 : i32
      %o = arith.constant 1 : i32
      %up, %vu = gpu.shuffle up %v, %o, %w : i32
      %down, %vd = gpu.shuffle down %up, %o, %w : i32
      %idx, %vi = gpu.shuffle idx %down, %o, %w : i32
      %r = arith.select %vi, %idx, %v : i32
      memref.store %r, %data[%tid] : memref<32xi32>
      gpu.return
    }
  }
}
