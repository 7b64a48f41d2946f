// RUN: mlkit-opt %s -split-input-file -gpu-to-llvm | filecheck %s

// The stream of the single dependency becomes the launch's async object and
// the stream of its token.
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  // CHECK-LABEL: llvm.func @one_dependency
  func.func @one_dependency(%c1: index) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    %t0 = gpu.wait async
    // CHECK-NEXT: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k blocks in (%{{.*}}, %{{.*}}, %{{.*}}) threads in (%{{.*}}, %{{.*}}, %{{.*}}) : i64
    %t1 = gpu.launch_func async [%t0] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    // CHECK-NEXT: llvm.call @mgpuStreamSynchronize(%[[S]])
    gpu.wait [%t1]
    return
  }
}

// -----

// async without dependencies launches on a new stream; a synchronous launch
// has no async object.
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  // CHECK-LABEL: llvm.func @no_dependency
  func.func @no_dependency(%c1: index) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k
    %t = gpu.launch_func async @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t]
    // CHECK: gpu.launch_func @kernels::@k blocks
    gpu.launch_func @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    return
  }
}

// -----

// More dependencies than one: the launch uses the first one's stream, which
// waits for events recorded on the others (or for the others, if events).
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  // CHECK-LABEL: llvm.func @several_dependencies
  // CHECK-SAME: %[[EV:[^:]*]]: !llvm.ptr
  func.func @several_dependencies(%c1: index, %e: !gpu.async.token) {
    // CHECK: %[[S0:.*]] = llvm.call @mgpuStreamCreate()
    %t0 = gpu.wait async
    // CHECK-NEXT: %[[S1:.*]] = llvm.call @mgpuStreamCreate()
    // CHECK-NEXT: %[[E1:.*]] = llvm.call @mgpuEventCreate()
    // CHECK-NEXT: llvm.call @mgpuEventRecord(%[[E1]], %[[S1]])
    %t1 = gpu.wait async
    // CHECK-NEXT: llvm.call @mgpuStreamWaitEvent(%[[S0]], %[[E1]])
    // CHECK-NEXT: llvm.call @mgpuStreamWaitEvent(%[[S0]], %[[EV]])
    // CHECK-NEXT: llvm.call @mgpuEventDestroy(%[[E1]])
    // CHECK-NEXT: llvm.call @mgpuEventDestroy(%[[EV]])
    // CHECK-NEXT: gpu.launch_func <%[[S0]] : !llvm.ptr> @kernels::@k
    %t2 = gpu.launch_func async [%t0, %t1, %e] @kernels::@k blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1)
    gpu.wait [%t2]
    return
  }
}

// -----

// A launch already in LLVM types is left as it is; with index sizes, an
// async object of a synchronous launch is dropped, as upstream drops it.
module attributes {gpu.container_module} {
  gpu.module @kernels { gpu.func @k() kernel { gpu.return } }
  // CHECK-LABEL: llvm.func @async_object
  // CHECK-SAME: (%[[I:.*]]: i64, %[[N:.*]]: i64, %[[S:.*]]: !llvm.ptr)
  func.func @async_object(%i: i64, %n: index, %s: !llvm.ptr) {
    // CHECK-NEXT: gpu.launch_func <%[[S]] : !llvm.ptr> @kernels::@k blocks in (%[[I]], %[[I]], %[[I]])
    gpu.launch_func <%s : !llvm.ptr> @kernels::@k blocks in (%i, %i, %i) threads in (%i, %i, %i) : i64
    // CHECK-NEXT: gpu.launch_func @kernels::@k blocks in (%[[N]], %[[N]], %[[N]])
    gpu.launch_func <%s : !llvm.ptr> @kernels::@k blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}
