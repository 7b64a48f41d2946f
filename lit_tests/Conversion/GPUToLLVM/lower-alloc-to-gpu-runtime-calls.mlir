// RUN: mlkit-opt %s -split-input-file -gpu-to-llvm | filecheck %s

// An async alloc on the stream of its dependency; the descriptor wraps the
// returned pointer (allocated = aligned, offset 0, sizes, then strides).
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @alloc_async
  // CHECK-SAME: (%[[N:.*]]: i64)
  func.func @alloc_async(%n : index) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate() : () -> !llvm.ptr
    %t0 = gpu.wait async
    // CHECK: %[[ONE:.*]] = llvm.mlir.constant(1 : index) : i64
    // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
    // CHECK: %[[GEP:.*]] = llvm.getelementptr %[[NULL]][%[[N]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    // CHECK: %[[BYTES:.*]] = llvm.ptrtoint %[[GEP]] : !llvm.ptr to i64
    // CHECK: %[[SHARED:.*]] = llvm.mlir.constant(0 : i8) : i8
    // CHECK: %[[P:.*]] = llvm.call @mgpuMemAlloc(%[[BYTES]], %[[S]], %[[SHARED]]) : (i64, !llvm.ptr, i8) -> !llvm.ptr
    // CHECK: %[[D0:.*]] = llvm.insertvalue %[[P]], %{{.*}}[0]
    // CHECK: %[[D1:.*]] = llvm.insertvalue %[[P]], %[[D0]][1]
    // CHECK: %[[ZERO:.*]] = llvm.mlir.constant(0 : index) : i64
    // CHECK: %[[D2:.*]] = llvm.insertvalue %[[ZERO]], %[[D1]][2]
    // CHECK: %[[D3:.*]] = llvm.insertvalue %[[N]], %[[D2]][3, 0]
    // CHECK: %[[D4:.*]] = llvm.insertvalue %[[ONE]], %[[D3]][4, 0]
    %m, %t1 = gpu.alloc async [%t0] (%n) : memref<?xf32>
    // CHECK: %[[A:.*]] = llvm.extractvalue %[[D4]][0]
    // CHECK: llvm.call @mgpuMemFree(%[[A]], %[[S]]) : (!llvm.ptr, !llvm.ptr) -> ()
    %t2 = gpu.dealloc async [%t1] %m : memref<?xf32>
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    // CHECK: llvm.call @mgpuStreamDestroy(%[[S]])
    gpu.wait [%t2]
    return
  }
  // CHECK-DAG: llvm.func @mgpuMemAlloc(i64, !llvm.ptr, i8) -> !llvm.ptr
  // CHECK-DAG: llvm.func @mgpuMemFree(!llvm.ptr, !llvm.ptr)
}

// -----

// host_shared: a null stream and isHostShared = 1.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @alloc_host_shared
  func.func @alloc_host_shared(%n : index) -> memref<?xf32> {
    // CHECK: llvm.ptrtoint
    // CHECK-NEXT: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
    // CHECK-NEXT: %[[SHARED:.*]] = llvm.mlir.constant(1 : i8) : i8
    // CHECK: llvm.call @mgpuMemAlloc(%{{.*}}, %[[NULL]], %[[SHARED]])
    %m = gpu.alloc host_shared (%n) : memref<?xf32>
    return %m : memref<?xf32>
  }
}

// -----

// Static sizes fold into constants: 2x3 has strides [3, 1] and 6 elements.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @alloc_static
  func.func @alloc_static() -> memref<2x3xf32> {
    %t0 = gpu.wait async
    // CHECK-DAG: %[[C2:.*]] = llvm.mlir.constant(2 : index) : i64
    // CHECK-DAG: %[[C3:.*]] = llvm.mlir.constant(3 : index) : i64
    // CHECK-DAG: %[[C1:.*]] = llvm.mlir.constant(1 : index) : i64
    // CHECK-DAG: %[[C6:.*]] = llvm.mlir.constant(6 : index) : i64
    // CHECK: llvm.getelementptr %{{.*}}[%[[C6]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    // CHECK: llvm.call @mgpuMemAlloc
    // CHECK: llvm.insertvalue %[[C2]], %{{.*}}[3, 0]
    // CHECK: llvm.insertvalue %[[C3]], %{{.*}}[3, 1]
    // CHECK: llvm.insertvalue %[[C3]], %{{.*}}[4, 0]
    // CHECK: llvm.insertvalue %[[C1]], %{{.*}}[4, 1]
    %m, %t = gpu.alloc async [%t0] () : memref<2x3xf32>
    gpu.wait [%t]
    return %m : memref<2x3xf32>
  }
}

// -----

// Dynamic sizes multiply at run time; a memory space casts the pointer.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @alloc_dynamic_space
  // CHECK-SAME: (%[[N:.*]]: i64)
  func.func @alloc_dynamic_space(%n : index) -> memref<?x3xi8, 1> {
    %t0 = gpu.wait async
    // CHECK: %[[C3:.*]] = llvm.mlir.constant(3 : index) : i64
    // CHECK: %[[COUNT:.*]] = llvm.mul %[[C3]], %[[N]] : i64
    // CHECK: llvm.getelementptr %{{.*}}[%[[COUNT]]] : (!llvm.ptr, i64) -> !llvm.ptr, i8
    // CHECK: %[[P:.*]] = llvm.call @mgpuMemAlloc
    // CHECK: %[[P1:.*]] = llvm.addrspacecast %[[P]] : !llvm.ptr to !llvm.ptr<1>
    // CHECK: llvm.insertvalue %[[P1]], %{{.*}}[0] : !llvm.struct<(ptr<1>, ptr<1>, i64, array<2 x i64>, array<2 x i64>)>
    // CHECK: llvm.insertvalue %[[C3]], %{{.*}}[4, 0]
    %m, %t = gpu.alloc async [%t0] (%n) : memref<?x3xi8, 1>
    gpu.wait [%t]
    return %m : memref<?x3xi8, 1>
  }
}

// -----

// An unused alloc is erased, as upstream's pre-pass erases dead ops.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @alloc_unused
  // CHECK-NEXT: llvm.return
  // CHECK-NOT: mgpuMemAlloc
  func.func @alloc_unused() {
    %m = gpu.alloc () : memref<4xf32>
    return
  }
}

// -----

// A synchronous dealloc frees on a null stream.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @dealloc_sync
  func.func @dealloc_sync(%a: memref<3xi32>) {
    // CHECK: %[[A:.*]] = llvm.extractvalue %{{.*}}[0]
    // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
    // CHECK: llvm.call @mgpuMemFree(%[[A]], %[[NULL]])
    gpu.dealloc %a : memref<3xi32>
    return
  }
}

// -----

// Forms upstream does not convert stay, bridged with casts: a non-identity
// layout, a host_shared alloc with a token, several dependencies.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @alloc_left_alone
  func.func @alloc_left_alone() -> (memref<2x3xf32, strided<[3, 1], offset: 2>>, memref<4xf32>) {
    %t0 = gpu.wait async
    // CHECK: gpu.alloc async [%{{.*}}] () : memref<2x3xf32, strided<[3, 1], offset: 2>>
    %m, %t1 = gpu.alloc async [%t0] () : memref<2x3xf32, strided<[3, 1], offset: 2>>
    // CHECK: gpu.alloc async [%{{.*}}] host_shared () : memref<4xf32>
    %h, %t2 = gpu.alloc async [%t1] host_shared () : memref<4xf32>
    %t3 = gpu.wait async
    // CHECK: gpu.dealloc async [%{{.*}}, %{{.*}}]
    %t4 = gpu.dealloc async [%t2, %t3] %h : memref<4xf32>
    // CHECK-NOT: mgpuMemAlloc
    gpu.wait [%t4]
    return %m, %h : memref<2x3xf32, strided<[3, 1], offset: 2>>, memref<4xf32>
  }
}
