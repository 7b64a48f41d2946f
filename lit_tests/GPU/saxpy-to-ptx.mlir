// REQUIRES: ptxas
// An explicit gpu.launch saxpy over dynamic sizes through gpu-lower-to-nvvm-pipeline.
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa opt-level=2})' --emit=ptx -o %t.ptx
// RUN: filecheck %s < %t.ptx
// RUN: ptxas -arch=sm_90 %t.ptx -o %t.cubin
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_80 cubin-format=isa})' --emit=ptx -o %t80.ptx
// RUN: ptxas -arch=sm_80 %t80.ptx -o %t80.cubin
// The binary keeps the PTX as an assembly object:
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa})' | filecheck %s --check-prefix=IR
// The host program as LLVM IR, with the PTX loaded at start-up and the launch through
// upstream's GPU runtime API with the kernel's twelve parameters.
// RUN: mlkit-opt %s -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-chip=sm_90 cubin-format=isa})' --emit=llvm | filecheck %s --check-prefix=HOST

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
// IR: gpu.binary @saxpy_kernel [#gpu.object<#nvvm.target<chip = "sm_90", features = "+ptx60">, properties = {O = 2 : i32}, assembly = "

// HOST: @saxpy_kernel_binary = internal constant [{{[0-9]+}} x i8] c"//{{.*}}.entry saxpy_kernel(
// HOST: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @saxpy_kernel_load, ptr null }]
// HOST: call ptr @mgpuModuleLoadJIT(ptr @saxpy_kernel_binary, i32 2, i64 {{[0-9]+}})
// HOST-LABEL: define void @saxpy(float
// HOST: %launch0.array = alloca ptr, i64 12
// HOST: call ptr @mgpuModuleGetFunction(ptr %launch0.module, ptr @saxpy_kernel_saxpy_kernel_name)
// HOST: call void @mgpuLaunchKernel(ptr %launch0.function, i64 %{{[0-9]+}}, i64 1, i64 1, i64 256, i64 1, i64 1, i32 0, ptr %launch0.stream, ptr %launch0.array, ptr null, i64 12)
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
