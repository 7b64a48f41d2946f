// REQUIRES: ptxas
// A gpu.module kernel that goes through workgroup memory and a barrier, with
// private memory, a shuffle and a libdevice call (linked from CUDA's libdevice).
// RUN: mlkit-opt %s -p 'builtin.module(nvvm-attach-target{chip=sm_90 O=3},gpu.module(convert-gpu-to-nvvm),canonicalize,cse,reconcile-unrealized-casts,gpu-module-to-binary{format=isa})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// The same PTX comes from the gpu.module before serialization:
// RUN: mlkit-opt %s -p 'builtin.module(nvvm-attach-target{chip=sm_80},gpu.module(convert-gpu-to-nvvm),canonicalize,cse,reconcile-unrealized-casts)' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin

// CHECK: .target sm_90
// CHECK: .visible .entry reduce(
// CHECK-NEXT: .param .u64 .ptr .align 1 reduce_param_0,
// CHECK: .shared .align 4 .b8 __wg_reduce_0[1024];
// CHECK: st.shared.b32
// CHECK: bar.sync 0;
// CHECK: shfl.sync.bfly.b32
// CHECK: ld.shared.b32

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reduce(%in: memref<256xf32>, %out: memref<1xf32>) workgroup(%buf: memref<256xf32, #gpu.address_space<workgroup>>) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      %c0 = arith.constant 0 : index
      %tid = gpu.thread_id x
      %v = memref.load %in[%tid] : memref<256xf32>
      %e = math.exp %v : f32
      memref.store %e, %buf[%tid] : memref<256xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %l = gpu.lane_id
      %w = arith.constant 32 : i32
      %o = arith.constant 1 : i32
      %s, %valid = gpu.shuffle xor %e, %o, %w : f32
      %r = memref.load %buf[%c0] : memref<256xf32, #gpu.address_space<workgroup>>
      memref.store %s, %p[%c0] : memref<4xf32, #gpu.address_space<private>>
      memref.store %r, %out[%c0] : memref<1xf32>
      gpu.return
    }
  }
}
