// RUN: mlkit-opt %s -split-input-file -gpu-to-llvm | filecheck %s

// memcpy: the byte size from the source's element count, aligned pointers in
// address space 0, the stream of the dependency.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @memcpy_static
  func.func @memcpy_static(%dst : memref<7xf32, 1>, %src : memref<7xf32>) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate
    %t0 = gpu.wait async
    // CHECK: %[[C7:.*]] = llvm.mlir.constant(7 : index) : i64
    // CHECK: %[[GEP:.*]] = llvm.getelementptr %{{.*}}[%[[C7]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
    // CHECK: %[[BYTES:.*]] = llvm.ptrtoint %[[GEP]]
    // CHECK: %[[SRC:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr, ptr
    // CHECK: %[[DST1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.struct<(ptr<1>, ptr<1>
    // CHECK: %[[DST:.*]] = llvm.addrspacecast %[[DST1]] : !llvm.ptr<1> to !llvm.ptr
    // CHECK: llvm.call @mgpuMemcpy(%[[DST]], %[[SRC]], %[[BYTES]], %[[S]]) : (!llvm.ptr, !llvm.ptr, i64, !llvm.ptr) -> ()
    %t1 = gpu.memcpy async [%t0] %dst, %src : memref<7xf32, 1>, memref<7xf32>
    // CHECK: llvm.call @mgpuStreamSynchronize(%[[S]])
    gpu.wait [%t1]
    return
  }
}

// -----

// A dynamic shape counts elements as the product of the source's sizes.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @memcpy_dynamic
  func.func @memcpy_dynamic(%a : memref<?x?xf64>, %b : memref<?x?xf64>) {
    %t0 = gpu.wait async
    // CHECK: %[[S0:.*]] = llvm.extractvalue %[[B:.*]][3, 0]
    // CHECK: %[[S1:.*]] = llvm.extractvalue %[[B]][3, 1]
    // CHECK: %[[N:.*]] = llvm.mul %[[S0]], %[[S1]] : i64
    // CHECK: llvm.getelementptr %{{.*}}[%[[N]]] : (!llvm.ptr, i64) -> !llvm.ptr, f64
    // CHECK: llvm.call @mgpuMemcpy
    %t1 = gpu.memcpy async [%t0] %a, %b : memref<?x?xf64>, memref<?x?xf64>
    gpu.wait [%t1]
    return
  }
}

// -----

// memset of a 32-bit value: the value as i32 and the element count.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @memset32
  func.func @memset32(%dst : memref<7xf32, 1>, %value : f32) {
    // CHECK: %[[S:.*]] = llvm.call @mgpuStreamCreate
    %t0 = gpu.wait async
    // CHECK: %[[N:.*]] = llvm.mlir.constant(7 : index) : i64
    // CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : f32 to i32
    // CHECK: %[[D1:.*]] = llvm.extractvalue %{{.*}}[1]
    // CHECK: %[[D:.*]] = llvm.addrspacecast %[[D1]] : !llvm.ptr<1> to !llvm.ptr
    // CHECK: llvm.call @mgpuMemset32(%[[D]], %[[V]], %[[N]], %[[S]]) : (!llvm.ptr, i32, i64, !llvm.ptr) -> ()
    %t1 = gpu.memset async [%t0] %dst, %value : memref<7xf32, 1>, f32
    gpu.wait [%t1]
    return
  }
}

// -----

// memset of a 16-bit value calls mgpuMemset16.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @memset16
  func.func @memset16(%dst : memref<?xf16>, %value : f16) {
    %t0 = gpu.wait async
    // CHECK: %[[N:.*]] = llvm.extractvalue %{{.*}}[3, 0]
    // CHECK: %[[V:.*]] = llvm.bitcast %{{.*}} : f16 to i16
    // CHECK: llvm.call @mgpuMemset16(%{{.*}}, %[[V]], %[[N]], %{{.*}}) : (!llvm.ptr, i16, i64, !llvm.ptr) -> ()
    %t1 = gpu.memset async [%t0] %dst, %value : memref<?xf16>, f16
    gpu.wait [%t1]
    return
  }
}

// -----

// Other widths, synchronous forms and several dependencies are left alone,
// as upstream leaves them; their tokens are then taken as events.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @left_alone
  func.func @left_alone(%a : memref<4xf64>, %v : f64) {
    %t0 = gpu.wait async
    // CHECK: %[[T:.*]] = gpu.memset async [%{{.*}}] %{{.*}}, %{{.*}} : memref<4xf64>, f64
    %t1 = gpu.memset async [%t0] %a, %v : memref<4xf64>, f64
    // CHECK: gpu.memcpy %{{.*}}, %{{.*}} : memref<4xf64>, memref<4xf64>
    gpu.memcpy %a, %a : memref<4xf64>, memref<4xf64>
    %t2 = gpu.wait async
    // CHECK: gpu.memcpy async [%{{.*}}, %{{.*}}]
    %t3 = gpu.memcpy async [%t1, %t2] %a, %a : memref<4xf64>, memref<4xf64>
    // CHECK: %[[E:.*]] = builtin.unrealized_conversion_cast %{{.*}} : !gpu.async.token to !llvm.ptr
    // CHECK: llvm.call @mgpuEventSynchronize(%[[E]])
    // CHECK: llvm.call @mgpuEventDestroy(%[[E]])
    // CHECK-NOT: mgpuMemset
    gpu.wait [%t3]
    return
  }
}
