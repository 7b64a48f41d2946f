// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of the NVVM ops convert-gpu-to-nvvm produces and of #nvvm.target,
// in upstream MLIR's syntax (nvvm.barrier0 has no custom form upstream).


// CHECK-LABEL: llvm.func @targets() attributes {targets = [#nvvm.target, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, #nvvm.target<chip = "sm_80", flags = {fast}, link = ["a.bc", "b.bc"]>, #nvvm.target<chip = "sm_50", features = "+ptx60">, #nvvm.target<triple = "nvptx-nvidia-cuda">, #nvvm.target<verifyTarget = false>, #nvvm.target<O = 0>]}
llvm.func @targets() attributes {targets = [#nvvm.target, #nvvm.target<O = 3, chip = "sm_90", features = "+ptx80">, #nvvm.target<chip = "sm_80", flags = {fast}, link = ["a.bc", "b.bc"]>, #nvvm.target<chip = "sm_50", features = "+ptx60">, #nvvm.target<O = 2, chip = "sm_75", triple = "nvptx-nvidia-cuda">, #nvvm.target<verifyTarget = false>, #nvvm.target<O = 0>]}


// CHECK-LABEL: llvm.func @special_registers() {
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.tid.x : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.tid.y : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.tid.z : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.ntid.x : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.ntid.y : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.ntid.z : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.ctaid.x : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.ctaid.y : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.ctaid.z : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.nctaid.x : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.nctaid.y : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.nctaid.z : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.laneid : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.warpsize : i32
// CHECK: %{{[0-9]+}} = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
// CHECK: llvm.return
llvm.func @special_registers() {
  %0 = nvvm.read.ptx.sreg.tid.x : i32
  %1 = nvvm.read.ptx.sreg.tid.y : i32
  %2 = nvvm.read.ptx.sreg.tid.z : i32
  %3 = nvvm.read.ptx.sreg.ntid.x : i32
  %4 = nvvm.read.ptx.sreg.ntid.y : i32
  %5 = nvvm.read.ptx.sreg.ntid.z : i32
  %6 = nvvm.read.ptx.sreg.ctaid.x : i32
  %7 = nvvm.read.ptx.sreg.ctaid.y : i32
  %8 = nvvm.read.ptx.sreg.ctaid.z : i32
  %9 = nvvm.read.ptx.sreg.nctaid.x : i32
  %10 = nvvm.read.ptx.sreg.nctaid.y : i32
  %11 = nvvm.read.ptx.sreg.nctaid.z : i32
  %12 = nvvm.read.ptx.sreg.laneid : i32
  %13 = nvvm.read.ptx.sreg.warpsize : i32
  %14 = nvvm.read.ptx.sreg.tid.x range <i32, 0, 1024> : i32
  llvm.return
}


// CHECK-LABEL: llvm.func @barriers(%arg0: i32, %arg1: i32) {
// CHECK: "nvvm.barrier0"() : () -> ()
// CHECK: nvvm.barrier
// CHECK: nvvm.barrier id = %arg0
// CHECK: nvvm.barrier id = %arg0 number_of_threads = %arg1
// CHECK: llvm.return
llvm.func @barriers(%arg0: i32, %arg1: i32) {
  "nvvm.barrier0"() : () -> ()
  nvvm.barrier
  nvvm.barrier id = %arg0
  nvvm.barrier id = %arg0 number_of_threads = %arg1
  llvm.return
}


// CHECK-LABEL: llvm.func @shuffles(%arg0: i32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: i32) {
// CHECK: %{{[0-9]+}} = nvvm.shfl.sync bfly %arg0, %arg1, %arg2, %arg3 : f32 -> f32
// CHECK: %{{[0-9]+}} = nvvm.shfl.sync up %arg0, %arg1, %arg2, %arg3 : f32 -> f32
// CHECK: %{{[0-9]+}} = nvvm.shfl.sync down %arg0, %arg4, %arg2, %arg3 {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
// CHECK: %{{[0-9]+}} = nvvm.shfl.sync idx %arg0, %arg1, %arg2, %arg3 : f32 -> f32
// CHECK: llvm.return
llvm.func @shuffles(%arg0: i32, %arg1: f32, %arg2: i32, %arg3: i32, %arg4: i32) {
  %0 = nvvm.shfl.sync bfly %arg0, %arg1, %arg2, %arg3 : f32 -> f32
  %1 = nvvm.shfl.sync up %arg0, %arg1, %arg2, %arg3 : f32 -> f32
  %2 = nvvm.shfl.sync down %arg0, %arg4, %arg2, %arg3 {return_value_and_is_valid} : i32 -> !llvm.struct<(i32, i1)>
  %3 = nvvm.shfl.sync idx %arg0, %arg1, %arg2, %arg3 : f32 -> f32
  llvm.return
}

// CHECK-LABEL: llvm.func @cluster_and_warp
llvm.func @cluster_and_warp(%x: f32, %mask: i32) -> f32 {
  // CHECK: nvvm.rcp.approx.ftz.f %{{.*}} : f32
  %0 = nvvm.rcp.approx.ftz.f %x : f32
  // CHECK: nvvm.cluster.arrive{{$}}
  nvvm.cluster.arrive
  // CHECK: nvvm.cluster.arrive {aligned}
  nvvm.cluster.arrive {aligned}
  // CHECK: nvvm.cluster.wait{{$}}
  nvvm.cluster.wait
  // CHECK: nvvm.cluster.wait {aligned}
  nvvm.cluster.wait {aligned}
  // CHECK: nvvm.fence.sc.cluster
  nvvm.fence.sc.cluster
  // CHECK: nvvm.bar.warp.sync %{{.*}} : i32
  nvvm.bar.warp.sync %mask : i32
  llvm.return %0 : f32
}
