// RUN: mlkit-opt %s -split-input-file -gpu-to-llvm | filecheck %s

// host_register / host_unregister pass the rank, the pointer to the ranked
// descriptor and the element size.
module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @register
  func.func @register(%m: memref<*xf64>) {
    // CHECK: %[[D:.*]] = llvm.insertvalue %{{.*}}[1] : !llvm.struct<(i64, ptr)>
    // CHECK: %[[NULL:.*]] = llvm.mlir.zero : !llvm.ptr
    // CHECK: %[[GEP:.*]] = llvm.getelementptr %[[NULL]][1] : (!llvm.ptr) -> !llvm.ptr, f64
    // CHECK: %[[SIZE:.*]] = llvm.ptrtoint %[[GEP]] : !llvm.ptr to i64
    // CHECK: %[[RANK:.*]] = llvm.extractvalue %[[D]][0] : !llvm.struct<(i64, ptr)>
    // CHECK: %[[PTR:.*]] = llvm.extractvalue %[[D]][1] : !llvm.struct<(i64, ptr)>
    // CHECK: llvm.call @mgpuMemHostRegisterMemRef(%[[RANK]], %[[PTR]], %[[SIZE]]) : (i64, !llvm.ptr, i64) -> ()
    gpu.host_register %m : memref<*xf64>
    // CHECK: llvm.call @mgpuMemHostUnregisterMemRef(%{{.*}}, %{{.*}}, %{{.*}}) : (i64, !llvm.ptr, i64) -> ()
    gpu.host_unregister %m : memref<*xf64>
    return
  }
}

// -----

module attributes {gpu.container_module} {
  // CHECK-LABEL: llvm.func @default_device
  // CHECK-SAME: (%[[I:.*]]: i32)
  func.func @default_device(%i: i32) {
    // CHECK-NEXT: llvm.call @mgpuSetDefaultDevice(%[[I]]) : (i32) -> ()
    gpu.set_default_device %i
    return
  }
}
