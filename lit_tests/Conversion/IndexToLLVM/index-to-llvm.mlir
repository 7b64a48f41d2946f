// RUN: mlkit-opt %s -split-input-file -convert-index-to-llvm | FileCheck %s
// RUN: mlkit-opt %s -split-input-file -convert-index-to-llvm=index-bitwidth=32 | FileCheck %s --check-prefix=CHECK32

// CHECK-LABEL: func.func @binary
// CHECK: llvm.add %{{.*}}, %{{.*}} : i64
// CHECK: llvm.urem %{{.*}}, %{{.*}} : i64
// CHECK: llvm.intr.smax(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: llvm.intr.smin(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: llvm.intr.umax(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: llvm.intr.umin(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK32-LABEL: func.func @binary
// CHECK32: llvm.add %{{.*}}, %{{.*}} : i32
// CHECK32: llvm.intr.smax(%{{.*}}, %{{.*}}) : (i32, i32) -> i32
func.func @binary(%a: index, %b: index) -> (index, index, index, index, index, index) {
  %0 = index.add %a, %b
  %1 = index.remu %a, %b
  %2 = index.maxs %a, %b
  %3 = index.mins %a, %b
  %4 = index.maxu %a, %b
  %5 = index.minu %a, %b
  return %0, %1, %2, %3, %4, %5 : index, index, index, index, index, index
}

// -----

// CHECK-LABEL: func.func @constants_and_casts
// CHECK: llvm.mlir.constant(42 : i64) : i64
// CHECK: llvm.mlir.constant(true) : i1
// CHECK: llvm.trunc %{{.*}} : i64 to i32
// CHECK: llvm.zext %{{.*}} : i32 to i64
// CHECK: llvm.mlir.constant(64 : i64) : i64
// CHECK32-LABEL: func.func @constants_and_casts
// CHECK32: llvm.mlir.constant(42 : i32) : i32
// CHECK32-NOT: llvm.trunc
// CHECK32-NOT: llvm.zext
// CHECK32: llvm.mlir.constant(32 : i32) : i32
func.func @constants_and_casts(%a: index, %i: i32) -> (index, i1, i32, index, index) {
  %0 = index.constant 42
  %1 = index.bool.constant true
  %2 = index.casts %a : index to i32
  %3 = index.castu %i : i32 to index
  %4 = index.sizeof
  return %0, %1, %2, %3, %4 : index, i1, i32, index, index
}

// -----

// CHECK-LABEL: func.func @divisions
// CHECK32-LABEL: func.func @divisions
// CHECK: llvm.icmp "sgt"
// CHECK: llvm.sdiv
// CHECK: llvm.udiv
// CHECK: llvm.icmp "slt"
func.func @divisions(%a: index, %b: index) -> (index, index, index) {
  %0 = index.ceildivs %a, %b
  %1 = index.ceildivu %a, %b
  %2 = index.floordivs %a, %b
  return %0, %1, %2 : index, index, index
}
