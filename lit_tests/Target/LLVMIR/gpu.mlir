// RUN: mlkit-translate --mlir-to-llvmir --split-input-file %s | filecheck %s

// The host side of a GPU program, as upstream's #gpu.select_object handler
// translates it: the binary, its module handle loaded by a global constructor,
// and a launch through upstream's mgpu* runtime API.

module attributes {gpu.container_module} {
  // CHECK-DAG: @kernel_module_binary = internal constant [4 x i8] c"BLOB", align 8
  // CHECK-DAG: @kernel_module_module = internal global ptr null
  // CHECK-DAG: @kernel_module_kernel_name = private unnamed_addr constant [7 x i8] c"kernel\00", align 1
  // CHECK-DAG: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @kernel_module_load, ptr null }]
  // CHECK-DAG: @llvm.global_dtors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 123, ptr @kernel_module_unload, ptr null }]
  gpu.binary @kernel_module [#gpu.object<#nvvm.target, "BLOB">]

  // CHECK-LABEL: define internal void @kernel_module_load() section ".text.startup"
  // CHECK-NEXT: [[M:%.*]] = call ptr @mgpuModuleLoad(ptr @kernel_module_binary, i64 4)
  // CHECK-NEXT: store ptr [[M]], ptr @kernel_module_module
  // CHECK-LABEL: define internal void @kernel_module_unload() section ".text.startup"
  // CHECK-NEXT: [[M:%.*]] = load ptr, ptr @kernel_module_module
  // CHECK-NEXT: call void @mgpuModuleUnload(ptr [[M]])

  // CHECK-LABEL: define void @foo()
  // CHECK: [[ARGS:%.*]] = alloca { i32, i32 }, align 8
  // CHECK: [[ARRAY:%.*]] = alloca ptr, i64 2, align 8
  // CHECK: [[A0:%.*]] = getelementptr inbounds nuw { i32, i32 }, ptr [[ARGS]], i32 0, i32 0
  // CHECK: store i32 32, ptr [[A0]], align 4
  // CHECK: [[S0:%.*]] = getelementptr ptr, ptr [[ARRAY]], i32 0
  // CHECK: store ptr [[A0]], ptr [[S0]], align 8
  // CHECK: [[A1:%.*]] = getelementptr inbounds nuw { i32, i32 }, ptr [[ARGS]], i32 0, i32 1
  // CHECK: [[MODULE:%.*]] = load ptr, ptr @kernel_module_module
  // CHECK: [[FUNC:%.*]] = call ptr @mgpuModuleGetFunction(ptr [[MODULE]], ptr @kernel_module_kernel_name)
  // CHECK: [[STREAM:%.*]] = call ptr @mgpuStreamCreate()
  // CHECK: call void @mgpuLaunchKernel(ptr [[FUNC]], i64 8, i64 8, i64 8, i64 8, i64 8, i64 8, i32 256, ptr [[STREAM]], ptr [[ARRAY]], ptr null, i64 2)
  // CHECK: call void @mgpuStreamSynchronize(ptr [[STREAM]])
  // CHECK: call void @mgpuStreamDestroy(ptr [[STREAM]])
  llvm.func @foo() {
    %0 = llvm.mlir.constant(8 : index) : i64
    %1 = llvm.mlir.constant(32 : i32) : i32
    %2 = llvm.mlir.constant(256 : i32) : i32
    gpu.launch_func @kernel_module::@kernel blocks in (%0, %0, %0) threads in (%0, %0, %0) : i64 dynamic_shared_memory_size %2 args(%1 : i32, %1 : i32)
    llvm.return
  }
  // CHECK-DAG: declare ptr @mgpuModuleLoad(ptr, i64)
  // CHECK-DAG: declare void @mgpuLaunchKernel(ptr, i64, i64, i64, i64, i64, i64, i32, ptr, ptr, ptr, i64)
}

// -----

// The object at an index, and PTX (assembly) loaded through the JIT loader
// with the object's optimization level and a terminating NUL.
module {
  // CHECK: @kernel_module_binary = internal constant [3 x i8] c"PT\00", align 8
  // CHECK: call ptr @mgpuModuleLoadJIT(ptr @kernel_module_binary, i32 2, i64 3)
  gpu.binary @kernel_module <#gpu.select_object<1>> [#gpu.object<#nvvm.target, "0">, #gpu.object<#nvvm.target, properties = {O = 2 : i32}, assembly = "PT">]
}

// -----

// The object for a given target, in a named section.
module {
  // CHECK: @kernel_module_binary = internal constant [5 x i8] c"SM_90", section "__nv_rel_fatbin", align 8
  gpu.binary @kernel_module <#gpu.select_object<#nvvm.target<chip = "sm_90">>> [#gpu.object<#nvvm.target, "SM_80">, #gpu.object<#nvvm.target<chip = "sm_90">, properties = {section = "__nv_rel_fatbin"}, "SM_90">]
}

// -----

// A launch on a given stream creates, synchronizes and destroys none; i32
// sizes widen to the runtime's i64.
module attributes {gpu.container_module} {
  gpu.binary @kernel_module [#gpu.object<#nvvm.target, "BLOB">]
  // CHECK-LABEL: define void @on_stream(ptr %0, i32 %1)
  // CHECK-NOT: @mgpuStreamCreate
  // CHECK: [[X:%.*]] = zext i32 %1 to i64
  // CHECK: call void @mgpuLaunchKernel(ptr {{.*}}, i64 [[X]], i64 [[X]], i64 [[X]], i64 [[X]], i64 [[X]], i64 [[X]], i32 0, ptr %0, ptr {{.*}}, ptr null, i64 0)
  // CHECK-NOT: @mgpuStreamSynchronize
  llvm.func @on_stream(%stream: !llvm.ptr, %n: i32) {
    gpu.launch_func <%stream : !llvm.ptr> @kernel_module::@kernel blocks in (%n, %n, %n) threads in (%n, %n, %n) : i32
    llvm.return
  }
}

// -----

// Clusters launch through mgpuLaunchClusterKernel.
module attributes {gpu.container_module} {
  gpu.binary @kernel_module [#gpu.object<#nvvm.target, "BLOB">]
  // CHECK: call void @mgpuLaunchClusterKernel(
  // CHECK-SAME: i64 1, i64 1, i64 1,
  // CHECK-SAME: i64 2, i64 2, i64 2,
  // CHECK-SAME: i64 3, i64 3, i64 3, i32 0, ptr
  llvm.func @clusters() {
    %c1 = llvm.mlir.constant(1 : index) : i64
    %c2 = llvm.mlir.constant(2 : index) : i64
    %c3 = llvm.mlir.constant(3 : index) : i64
    gpu.launch_func @kernel_module::@kernel clusters in (%c1, %c1, %c1) blocks in (%c2, %c2, %c2) threads in (%c3, %c3, %c3) : i64
    llvm.return
  }
}
