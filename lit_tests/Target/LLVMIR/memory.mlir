// RUN: mlkit-translate --mlir-to-llvmir --split-input-file %s | filecheck %s
// RUN: mlkit-opt %s --split-input-file --emit=llvm | filecheck %s

// Loads, stores, allocas and getelementptr, with alignment, volatility,
// atomic orderings, sync scopes and access metadata.

// CHECK-LABEL: define void @load_store(ptr %0, i32 %1)
// CHECK-NEXT: %3 = load i32, ptr %0, align 4
// CHECK-NEXT: %4 = load volatile float, ptr %0, align 8
// CHECK-NEXT: %5 = load atomic i32, ptr %0 acquire, align 4
// CHECK-NEXT: %6 = load atomic volatile i32, ptr %0 syncscope("agent") monotonic, align 4
// CHECK-NEXT: %7 = load i64, ptr %0, align 8, !invariant.load ![[EMPTY:[0-9]+]], !nontemporal ![[ONE:[0-9]+]]
// CHECK-NEXT: %8 = load ptr, ptr %0, align 8, !invariant.group ![[EMPTY]]
// CHECK-NEXT: store i32 %1, ptr %0, align 4
// CHECK-NEXT: store volatile i32 %1, ptr %0, align 4
// CHECK-NEXT: store atomic i32 %1, ptr %0 release, align 4
// CHECK-NEXT: store atomic i32 %1, ptr %0 syncscope("singlethread") seq_cst, align 4
// CHECK-NEXT: store i32 %1, ptr %0, align 4, !nontemporal ![[ONE]]
// CHECK-NEXT: store i32 %1, ptr %0, align 4, !invariant.group ![[EMPTY]]
// CHECK-NEXT: ret void
// CHECK-DAG: ![[EMPTY]] = !{}
// CHECK-DAG: ![[ONE]] = !{i32 1}
llvm.func @load_store(%p: !llvm.ptr, %v: i32) {
  %0 = llvm.load %p {alignment = 4 : i64} : !llvm.ptr -> i32
  %1 = llvm.load volatile %p {alignment = 8 : i64} : !llvm.ptr -> f32
  %2 = llvm.load %p atomic acquire {alignment = 4 : i64} : !llvm.ptr -> i32
  %3 = llvm.load volatile %p atomic syncscope("agent") monotonic {alignment = 4 : i64} : !llvm.ptr -> i32
  %4 = llvm.load %p invariant {alignment = 8 : i64, nontemporal} : !llvm.ptr -> i64
  %5 = llvm.load %p invariant_group {alignment = 8 : i64} : !llvm.ptr -> !llvm.ptr
  llvm.store %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.store volatile %v, %p {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.store %v, %p atomic release {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.store %v, %p atomic syncscope("singlethread") seq_cst {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.store %v, %p {alignment = 4 : i64, nontemporal} : i32, !llvm.ptr
  llvm.store %v, %p invariant_group {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

// CHECK-LABEL: define void @alloca(i64 %0)
// CHECK-NEXT: %2 = alloca float, i64 %0, align 16
// CHECK-NEXT: %3 = alloca { i32, [4 x i8] }, align 4
// CHECK-NEXT: %4 = alloca i32, align 4, addrspace(5)
// CHECK-NEXT: %5 = alloca i8, align 1
llvm.func @alloca(%n: i64) {
  %0 = llvm.alloca %n x f32 {alignment = 16 : i64} : (i64) -> !llvm.ptr
  %c1 = llvm.mlir.constant(1 : i32) : i32
  %1 = llvm.alloca %c1 x !llvm.struct<(i32, array<4 x i8>)> {alignment = 4 : i64} : (i32) -> !llvm.ptr
  %2 = llvm.alloca %c1 x i32 {alignment = 4 : i64} : (i32) -> !llvm.ptr<5>
  %3 = llvm.alloca %c1 x i8 : (i32) -> !llvm.ptr
  llvm.return
}

// -----

// CHECK-LABEL: define void @gep(ptr %0, i64 %1)
// CHECK-NEXT: %3 = getelementptr float, ptr %0, i64 %1
// CHECK-NEXT: %4 = getelementptr inbounds { i32, [4 x float] }, ptr %0, i32 0, i32 1, i64 %1
// CHECK-NEXT: %5 = getelementptr nusw nuw i8, ptr %0, i32 16
// CHECK-NEXT: %6 = getelementptr inbounds nuw [8 x i32], ptr %0, i64 %1, i64 %1
llvm.func @gep(%p: !llvm.ptr, %i: i64) {
  %0 = llvm.getelementptr %p[%i] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  %1 = llvm.getelementptr inbounds %p[0, 1, %i] : (!llvm.ptr, i64) -> !llvm.ptr, !llvm.struct<(i32, array<4 x f32>)>
  %2 = llvm.getelementptr nusw|nuw %p[16] : (!llvm.ptr) -> !llvm.ptr, i8
  %3 = llvm.getelementptr inbounds|nuw %p[%i, %i] : (!llvm.ptr, i64, i64) -> !llvm.ptr, !llvm.array<8 x i32>
  llvm.return
}

// -----

// CHECK-LABEL: define void @atomics(ptr %0, i32 %1, float %2)
// CHECK-NEXT: %4 = atomicrmw add ptr %0, i32 %1 monotonic, align 4
// CHECK-NEXT: %5 = atomicrmw volatile and ptr %0, i32 %1 seq_cst, align 4
// CHECK-NEXT: %6 = atomicrmw umax ptr %0, i32 %1 syncscope("agent") acq_rel, align 4
// CHECK-NEXT: %7 = atomicrmw fadd ptr %0, float %2 release, align 4
// CHECK-NEXT: %8 = atomicrmw xchg ptr %0, i32 %1 acquire, align 4
// CHECK-NEXT: %9 = cmpxchg ptr %0, i32 %1, i32 %1 acq_rel monotonic, align 4
// CHECK-NEXT: %10 = cmpxchg weak volatile ptr %0, i32 %1, i32 %1 syncscope("agent") seq_cst seq_cst, align 4
// CHECK-NEXT: fence acquire
// CHECK-NEXT: fence syncscope("agent") seq_cst
llvm.func @atomics(%p: !llvm.ptr, %v: i32, %f: f32) {
  %0 = llvm.atomicrmw add %p, %v monotonic : !llvm.ptr, i32
  %1 = llvm.atomicrmw volatile _and %p, %v seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
  %2 = llvm.atomicrmw umax %p, %v syncscope("agent") acq_rel : !llvm.ptr, i32
  %3 = llvm.atomicrmw fadd %p, %f release : !llvm.ptr, f32
  %4 = llvm.atomicrmw xchg %p, %v acquire : !llvm.ptr, i32
  %5 = llvm.cmpxchg %p, %v, %v acq_rel monotonic : !llvm.ptr, i32
  %6 = llvm.cmpxchg weak volatile %p, %v, %v syncscope("agent") seq_cst seq_cst {alignment = 4 : i64} : !llvm.ptr, i32
  llvm.fence acquire
  llvm.fence syncscope("agent") seq_cst
  llvm.return
}
