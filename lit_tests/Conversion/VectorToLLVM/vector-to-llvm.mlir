// RUN: mlkit-opt %s -split-input-file -convert-vector-to-llvm | filecheck %s
// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(convert-vector-to-llvm{reassociate-fp-reductions use-vector-alignment})' | filecheck %s --check-prefix=OPTS

// A scalar broadcast: insertelement at 0, then a zero-mask shuffle.
// CHECK-LABEL: @broadcast_scalar
func.func @broadcast_scalar(%a: f32) -> vector<4xf32> {
  // CHECK: %[[P:.*]] = llvm.mlir.poison : vector<4xf32>
  // CHECK-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i32) : i32
  // CHECK-NEXT: %[[I:.*]] = llvm.insertelement %{{.*}}, %[[P]][%[[Z]] : i32] : vector<4xf32>
  // CHECK-NEXT: %[[S:.*]] = llvm.shufflevector %[[I]], %[[P]] [0, 0, 0, 0] : vector<4xf32>
  // CHECK-NEXT: return %[[S]]
  %0 = vector.broadcast %a : f32 to vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// n-D broadcasts fill an array of 1-D vectors; a unit dimension stretches.
// CHECK-LABEL: @broadcast_nd
func.func @broadcast_nd(%v: vector<4xf32>, %s: vector<2x1xf32>) -> (vector<3x4xf32>, vector<2x4xf32>) {
  // CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.array<3 x vector<4xf32>>
  // CHECK-NEXT: %[[A:.*]] = llvm.insertvalue %{{.*}}, %[[P]][0]
  // CHECK-NEXT: %[[B:.*]] = llvm.insertvalue %{{.*}}, %[[A]][1]
  // CHECK-NEXT: llvm.insertvalue %{{.*}}, %[[B]][2]
  %0 = vector.broadcast %v : vector<4xf32> to vector<3x4xf32>
  // CHECK: llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<1xf32>>
  // CHECK-NEXT: llvm.mlir.constant(0 : i64) : i64
  // CHECK-NEXT: llvm.extractelement %{{.*}} : vector<1xf32>
  // CHECK: llvm.shufflevector %{{.*}} [0, 0, 0, 0] : vector<4xf32>
  // CHECK-NEXT: llvm.insertvalue %{{.*}}[1] : !llvm.array<2 x vector<4xf32>>
  %1 = vector.broadcast %s : vector<2x1xf32> to vector<2x4xf32>
  return %0, %1 : vector<3x4xf32>, vector<2x4xf32>
}

// -----

// Static positions: extractvalue for the leading ones, extractelement for the last.
// CHECK-LABEL: @extract
func.func @extract(%v: vector<4xf32>, %m: vector<2x4xf32>, %i: index) -> (f32, vector<4xf32>, f32, f32) {
  // CHECK: %[[I64:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
  // CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
  // CHECK: %[[C1:.*]] = llvm.mlir.constant(1 : i64) : i64
  // CHECK-NEXT: llvm.extractelement %{{.*}}[%[[C1]] : i64] : vector<4xf32>
  %0 = vector.extract %v[1] : f32 from vector<4xf32>
  // CHECK-NEXT: llvm.extractvalue %[[M]][1] : !llvm.array<2 x vector<4xf32>>
  %1 = vector.extract %m[1] : vector<4xf32> from vector<2x4xf32>
  // CHECK-NEXT: %[[ROW:.*]] = llvm.extractvalue %[[M]][1] : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[C2:.*]] = llvm.mlir.constant(2 : i64) : i64
  // CHECK-NEXT: llvm.extractelement %[[ROW]][%[[C2]] : i64] : vector<4xf32>
  %2 = vector.extract %m[1, 2] : f32 from vector<2x4xf32>
  // CHECK-NEXT: llvm.extractelement %{{.*}}[%[[I64]] : i64] : vector<4xf32>
  %3 = vector.extract %v[%i] : f32 from vector<4xf32>
  return %0, %1, %2, %3 : f32, vector<4xf32>, f32, f32
}

// -----

// A dynamic position into an n-D vector stays, as upstream leaves it.
// CHECK-LABEL: @extract_dynamic_nd
func.func @extract_dynamic_nd(%m: vector<2x4xf32>, %i: index) -> f32 {
  // CHECK: vector.extract
  %0 = vector.extract %m[%i, 1] : f32 from vector<2x4xf32>
  return %0 : f32
}

// -----

// CHECK-LABEL: @insert
func.func @insert(%a: f32, %v: vector<4xf32>, %m: vector<2x4xf32>) -> (vector<4xf32>, vector<2x4xf32>, vector<2x4xf32>) {
  // CHECK: %[[M:.*]] = builtin.unrealized_conversion_cast %{{.*}} : vector<2x4xf32> to !llvm.array<2 x vector<4xf32>>
  // CHECK: llvm.insertelement %{{.*}}, %{{.*}}[%{{.*}} : i64] : vector<4xf32>
  %0 = vector.insert %a, %v[1] : f32 into vector<4xf32>
  // CHECK-NEXT: llvm.insertvalue %{{.*}}, %[[M]][1] : !llvm.array<2 x vector<4xf32>>
  %1 = vector.insert %v, %m[1] : vector<4xf32> into vector<2x4xf32>
  // CHECK: %[[ROW:.*]] = llvm.extractvalue %[[M]][0] : !llvm.array<2 x vector<4xf32>>
  // CHECK-NEXT: %[[C3:.*]] = llvm.mlir.constant(3 : i64) : i64
  // CHECK-NEXT: %[[NEW:.*]] = llvm.insertelement %{{.*}}, %[[ROW]][%[[C3]] : i64] : vector<4xf32>
  // CHECK-NEXT: llvm.insertvalue %[[NEW]], %[[M]][0] : !llvm.array<2 x vector<4xf32>>
  %2 = vector.insert %a, %m[0, 3] : f32 into vector<2x4xf32>
  return %0, %1, %2 : vector<4xf32>, vector<2x4xf32>, vector<2x4xf32>
}

// -----

// CHECK-LABEL: @elementwise
func.func @elementwise(%v: vector<4xf32>, %m: vector<2x4xf32>) -> (vector<4xf32>, vector<2x4xf32>, vector<4xi32>, vector<8xf32>) {
  // CHECK: llvm.intr.fmuladd(%{{.*}}, %{{.*}}, %{{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
  %0 = vector.fma %v, %v, %v : vector<4xf32>
  // CHECK-COUNT-2: llvm.intr.fmuladd
  %1 = vector.fma %m, %m, %m : vector<2x4xf32>
  // CHECK: llvm.bitcast %{{.*}} : vector<4xf32> to vector<4xi32>
  %2 = vector.bitcast %v : vector<4xf32> to vector<4xi32>
  // CHECK: llvm.shufflevector %{{.*}}, %{{.*}} [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>
  %3 = vector.shuffle %v, %v [0, 4, 1, 5, 2, 6, 3, 7] : vector<4xf32>, vector<4xf32>
  return %0, %1, %2, %3 : vector<4xf32>, vector<2x4xf32>, vector<4xi32>, vector<8xf32>
}

// -----

// CHECK-LABEL: @reductions
// OPTS-LABEL: @reductions
func.func @reductions(%v: vector<4xf32>, %iv: vector<4xi32>, %acc: f32, %iacc: i32) -> (f32, f32, i32, i32) {
  // CHECK: %[[Z:.*]] = llvm.mlir.constant(0.000000e+00 : f32) : f32
  // CHECK-NEXT: "llvm.intr.vector.reduce.fadd"(%[[Z]], %{{.*}}) <{fastmathFlags = #llvm.fastmath<none>}> : (f32, vector<4xf32>) -> f32
  // OPTS: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %{{.*}}) <{fastmathFlags = #llvm.fastmath<reassoc>}>
  %0 = vector.reduction <add>, %v : vector<4xf32> into f32
  // CHECK: %[[R:.*]] = llvm.intr.vector.reduce.fmax(%{{.*}}) : (vector<4xf32>) -> f32
  // CHECK-NEXT: llvm.intr.maxnum(%[[R]], %{{.*}}) : (f32, f32) -> f32
  %1 = vector.reduction <maxnumf>, %v, %acc : vector<4xf32> into f32
  // CHECK: %[[S:.*]] = "llvm.intr.vector.reduce.add"(%{{.*}}) : (vector<4xi32>) -> i32
  // CHECK-NEXT: llvm.add %{{.*}}, %[[S]] : i32
  %2 = vector.reduction <add>, %iv, %iacc : vector<4xi32> into i32
  // CHECK: %[[U:.*]] = "llvm.intr.vector.reduce.smin"(%{{.*}}) : (vector<4xi32>) -> i32
  // CHECK-NEXT: %[[C:.*]] = llvm.icmp "sle" %{{.*}}, %[[U]] : i32
  // CHECK-NEXT: llvm.select %[[C]], %{{.*}}, %[[U]] : i1, i32
  %3 = vector.reduction <minsi>, %iv, %iacc : vector<4xi32> into i32
  return %0, %1, %2, %3 : f32, f32, i32, i32
}

// -----

// Loads and stores address the element through the memref descriptor.
// CHECK-LABEL: @load_store
// OPTS-LABEL: @load_store
func.func @load_store(%m: memref<?x8xf32>, %i: index, %j: index) {
  // CHECK: %[[D:.*]] = builtin.unrealized_conversion_cast %{{.*}} : memref<?x8xf32> to !llvm.struct<(ptr, ptr, i64, array<2 x i64>, array<2 x i64>)>
  // CHECK: %[[BASE:.*]] = llvm.extractvalue %[[D]][1]
  // CHECK-NEXT: %[[ST:.*]] = llvm.mlir.constant(8 : index) : i64
  // CHECK-NEXT: %[[MUL:.*]] = llvm.mul %{{.*}}, %[[ST]] : i64
  // CHECK-NEXT: %[[IDX:.*]] = llvm.add %[[MUL]], %{{.*}} : i64
  // CHECK-NEXT: %[[PTR:.*]] = llvm.getelementptr %[[BASE]][%[[IDX]]] : (!llvm.ptr, i64) -> !llvm.ptr, f32
  // CHECK-NEXT: %[[V:.*]] = llvm.load %[[PTR]] {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
  // OPTS: llvm.load %{{.*}} {alignment = 16 : i64} : !llvm.ptr -> vector<4xf32>
  %0 = vector.load %m[%i, %j] : memref<?x8xf32>, vector<4xf32>
  // CHECK: llvm.store %[[V]], %{{.*}} {alignment = 4 : i64} : vector<4xf32>, !llvm.ptr
  // OPTS: llvm.store %{{.*}}, %{{.*}} {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
  vector.store %0, %m[%j, %i] : memref<?x8xf32>, vector<4xf32>
  return
}

// -----

// Ops outside the covered set stay: masked loads, transfers of rank 2.
// CHECK-LABEL: @left_alone
func.func @left_alone(%m: memref<8xf32>, %n: memref<8x8xf32>, %i: index, %v: vector<4xf32>, %k: vector<4xi1>) -> vector<4xf32> {
  // CHECK: vector.maskedload
  %0 = vector.maskedload %m[%i], %k, %v : memref<8xf32>, vector<4xi1>, vector<4xf32> into vector<4xf32>
  // CHECK: vector.transfer_read
  %c = arith.constant 0.0 : f32
  %1 = vector.transfer_read %n[%i, %i], %c : memref<8x8xf32>, vector<2x4xf32>
  return %0 : vector<4xf32>
}
