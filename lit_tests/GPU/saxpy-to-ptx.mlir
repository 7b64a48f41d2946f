// REQUIRES: ptxas
// An explicit gpu.launch saxpy over dynamic sizes through gpu-lower-to-nvvm-pipeline.
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa opt-level=2})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=isa})' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
// The binary keeps the PTX as an assembly object:
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa})' | filecheck %s --check-prefix=IR

// CHECK: .target sm_90
// CHECK: .visible .entry saxpy_kernel(
// CHECK-NEXT: .param .u64 saxpy_kernel_param_0,
// CHECK-NEXT: .param .u64 .ptr .align 1 saxpy_kernel_param_1,
// CHECK: .param .f32 saxpy_kernel_param_11
// CHECK-NEXT: )
// CHECK-NEXT: .maxntid 256, 1, 1
// CHECK: mov.u32 {{.*}}%ctaid.x
// CHECK: mul.rn.f32
// CHECK: add.rn.f32

// IR: gpu.launch_func @saxpy_kernel::@saxpy_kernel
// IR: gpu.binary @saxpy_kernel [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx60">, assembly = "

func.func @saxpy(%a: f32, %x: memref<?xf32>, %y: memref<?xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c256 = arith.constant 256 : index
  %n = memref.dim %x, %c0 : memref<?xf32>
  %nb = arith.ceildivui %n, %c256 : index
  gpu.launch blocks(%bx, %by, %bz) in (%gx = %nb, %gy = %c1, %gz = %c1)
             threads(%tx, %ty, %tz) in (%sx = %c256, %sy = %c1, %sz = %c1) {
    %base = arith.muli %bx, %sx : index
    %i = arith.addi %base, %tx : index
    %in = arith.cmpi ult, %i, %n : index
    scf.if %in {
      %xv = memref.load %x[%i] : memref<?xf32>
      %yv = memref.load %y[%i] : memref<?xf32>
      %p = arith.mulf %a, %xv : f32
      %s = arith.addf %p, %yv : f32
      memref.store %s, %y[%i] : memref<?xf32>
    }
    gpu.terminator
  }
  return
}
