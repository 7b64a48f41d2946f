// RUN: mlkit-translate --mlir-to-llvmir %s | filecheck %s
// RUN: mlkit-opt %s --emit=llvm | filecheck %s

// NVVM cluster barriers, fences, warp barriers and the approximate
// reciprocal call the NVVM intrinsics of the same names.

// CHECK-LABEL: define float @sync(float %0, i32 %1)
llvm.func @sync(%x: f32, %mask: i32) -> f32 {
  // CHECK: call float @llvm.nvvm.rcp.approx.ftz.f(float %0)
  %0 = nvvm.rcp.approx.ftz.f %x : f32
  // CHECK: call void @llvm.nvvm.barrier.cluster.arrive()
  nvvm.cluster.arrive
  // CHECK: call void @llvm.nvvm.barrier.cluster.arrive.aligned()
  nvvm.cluster.arrive {aligned}
  // CHECK: call void @llvm.nvvm.barrier.cluster.wait()
  nvvm.cluster.wait
  // CHECK: call void @llvm.nvvm.barrier.cluster.wait.aligned()
  nvvm.cluster.wait {aligned}
  // CHECK: call void @llvm.nvvm.fence.sc.cluster()
  nvvm.fence.sc.cluster
  // CHECK: call void @llvm.nvvm.bar.warp.sync(i32 %1)
  nvvm.bar.warp.sync %mask : i32
  llvm.return %0 : f32
}
