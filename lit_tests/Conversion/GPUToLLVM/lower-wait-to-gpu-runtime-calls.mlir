// RUN: mlkit-opt %s -split-input-file -gpu-to-llvm | filecheck %s

// A token of gpu.wait async is a stream; a dependency on a stream records an
// event right after the op that made the token; a synchronous wait
// synchronizes and destroys each stream.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @wait
  func.func @wait() {
    // CHECK: %[[T0:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    // CHECK-NEXT: %[[E0:.*]] = llvm.call @mgpuEventCreate() : () -> !llvm.ptr
    // CHECK-NEXT: llvm.call @mgpuEventRecord(%[[E0]], %[[T0]]) : (!llvm.ptr, !llvm.ptr) -> ()
    %t0 = gpu.wait async
    // CHECK-NEXT: %[[T1:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: llvm.call @mgpuStreamWaitEvent(%[[T1]], %[[E0]])
    // CHECK-NEXT: llvm.call @mgpuEventDestroy(%[[E0]])
    %t1 = gpu.wait async [%t0]
    // CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[T0]])
    // CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[T0]])
    // CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[T1]])
    // CHECK-NEXT: llvm.call @mgpuStreamDestroy(%[[T1]])
    gpu.wait [%t0, %t1]
    // A wait without dependencies does nothing.
    // CHECK-NEXT: llvm.return
    gpu.wait
    return
  }
}

// -----

// Events for later waits on the same stream come first after its op.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @two_waits
  func.func @two_waits() {
    // CHECK: %[[T0:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: %[[E2:.*]] = llvm.call @mgpuEventCreate()
    // CHECK-NEXT: llvm.call @mgpuEventRecord(%[[E2]], %[[T0]])
    // CHECK-NEXT: %[[E1:.*]] = llvm.call @mgpuEventCreate()
    // CHECK-NEXT: llvm.call @mgpuEventRecord(%[[E1]], %[[T0]])
    %t0 = gpu.wait async
    // CHECK-NEXT: %[[T1:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: llvm.call @mgpuStreamWaitEvent(%[[T1]], %[[E1]])
    %t1 = gpu.wait async [%t0]
    // CHECK: %[[T2:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: llvm.call @mgpuStreamWaitEvent(%[[T2]], %[[E2]])
    %t2 = gpu.wait async [%t0]
    gpu.wait [%t1, %t2]
    return
  }
}

// -----

// Tokens that do not come from mgpuStreamCreate (here function arguments)
// are events.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @events
  // CHECK-SAME: (%[[E:.*]]: !llvm.ptr, %[[G:.*]]: !llvm.ptr) -> !llvm.ptr
  func.func @events(%e: !gpu.async.token, %g: !gpu.async.token) -> !gpu.async.token {
    // CHECK-NEXT: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: llvm.call @mgpuStreamWaitEvent(%[[S]], %[[E]])
    // CHECK-NEXT: llvm.call @mgpuEventDestroy(%[[E]])
    %t = gpu.wait async [%e]
    // CHECK-NEXT: llvm.call @mgpuEventSynchronize(%[[G]])
    // CHECK-NEXT: llvm.call @mgpuEventDestroy(%[[G]])
    gpu.wait [%g]
    // CHECK-NEXT: llvm.return %[[S]] : !llvm.ptr
    return %t : !gpu.async.token
  }
}
