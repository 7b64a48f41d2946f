// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(convert-vector-to-llvm)' | filecheck %s

// A matmul-shaped contraction: one fused multiply-add per reduction step
// and accumulator row, the lhs element splatted against the rhs row.
// CHECK-LABEL: func.func @matmul
// CHECK-COUNT-6: llvm.intr.fmuladd({{.*}}) : (vector<4xf32>, vector<4xf32>, vector<4xf32>) -> vector<4xf32>
// CHECK-NOT: vector.contract
func.func @matmul(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>) -> vector<2x4xf32> {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  return %0 : vector<2x4xf32>
}

// -----

// A dot product: multiply, then an ordered reduction into the accumulator.
// CHECK-LABEL: func.func @dot
// CHECK: %[[P:.*]] = llvm.fmul %{{.*}}, %{{.*}} : vector<3xf32>
// CHECK: "llvm.intr.vector.reduce.fadd"(%{{.*}}, %[[P]])
func.func @dot(%a: vector<3xf32>, %b: vector<3xf32>, %s: f32) -> f32 {
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %a, %b, %s : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

// CHECK-LABEL: func.func @outer_int
// CHECK-COUNT-2: llvm.mul %{{.*}}, %{{.*}} : vector<3xi32>
// CHECK-NOT: vector.outerproduct
func.func @outer_int(%a: vector<2xi32>, %b: vector<3xi32>) -> vector<2x3xi32> {
  %0 = vector.outerproduct %a, %b : vector<2xi32>, vector<3xi32>
  return %0 : vector<2x3xi32>
}

// -----

// CHECK-LABEL: func.func @create_mask
// CHECK: %[[STEP:.*]] = llvm.mlir.constant(dense<[0, 1, 2, 3]> : vector<4xi32>) : vector<4xi32>
// CHECK: llvm.icmp "sgt" %{{.*}}, %[[STEP]] : vector<4xi32>
func.func @create_mask(%n: index) -> vector<4xi1> {
  %0 = vector.create_mask %n : vector<4xi1>
  return %0 : vector<4xi1>
}

// -----

// Out of bounds: a masked load under [0..3] < dim - index, padding splatted.
// CHECK-LABEL: func.func @read_oob
// CHECK: llvm.sub
// CHECK: llvm.icmp "sgt"
// CHECK: llvm.call_intrinsic "llvm.masked.load.v4f32.p0"
func.func @read_oob(%m: memref<?xf32>, %i: index) -> vector<4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i], %pad : memref<?xf32>, vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// In bounds and unmasked: a plain load; a vector.mask: a masked store.
// CHECK-LABEL: func.func @in_bounds
// CHECK: llvm.load %{{.*}} {alignment = 4 : i64} : !llvm.ptr -> vector<4xf32>
// CHECK-NOT: llvm.icmp
// CHECK: llvm.call_intrinsic "llvm.masked.store.v4f32.p0"
func.func @in_bounds(%m: memref<8xf32>, %i: index, %k: vector<4xi1>) {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i], %pad {in_bounds = [true]} : memref<8xf32>, vector<4xf32>
  vector.mask %k { vector.transfer_write %0, %m[%i] {in_bounds = [true]} : vector<4xf32>, memref<8xf32> } : vector<4xi1>
  return
}

// -----

// CHECK: llvm.func @printNewline()
// CHECK-LABEL: func.func @print
// CHECK: llvm.call @printOpen() : () -> ()
// CHECK: llvm.call @printF32(%{{.*}}) : (f32) -> ()
// CHECK: llvm.call @printComma() : () -> ()
// CHECK: llvm.call @printClose() : () -> ()
// CHECK: llvm.call @printNewline() : () -> ()
// CHECK: llvm.sext %{{.*}} : i32 to i64
// CHECK: llvm.call @printI64
// CHECK: llvm.call @printComma() : () -> ()
func.func @print(%v: vector<2xf32>, %i: i32) {
  vector.print %v : vector<2xf32>
  vector.print %i : i32 punctuation <comma>
  return
}

// -----

// Left: a 2-D transfer (convert-vector-to-scf splits it first).
// CHECK-LABEL: func.func @left
// CHECK: vector.transfer_read
func.func @left(%m: memref<4x4xf32>, %i: index) -> vector<4x4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.transfer_read %m[%i, %i], %pad : memref<4x4xf32>, vector<4x4xf32>
  return %0 : vector<4x4xf32>
}

// -----

// Narrower operands sign-extend to the accumulator's type first.
// CHECK-LABEL: func.func @mixed
// CHECK: llvm.sext %{{.*}} : vector<3xi8> to vector<3xi32>
// CHECK: llvm.mul %{{.*}}, %{{.*}} : vector<3xi32>
// CHECK: "llvm.intr.vector.reduce.add"
func.func @mixed(%a: vector<3xi8>, %s: i32) -> i32 {
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %a, %a, %s : vector<3xi8>, vector<3xi8> into i32
  return %0 : i32
}

// -----

// An n-D mask: each row the 1-D mask where the leading index is below its
// size, else all false.
// CHECK-LABEL: func.func @create_mask_2d
// CHECK: %[[ROW:.*]] = llvm.icmp "sgt" %{{.*}} : vector<4xi32>
// CHECK: %[[ZERO:.*]] = llvm.mlir.constant(dense<false> : vector<4xi1>) : vector<4xi1>
// CHECK: %[[IN0:.*]] = llvm.icmp "slt" %{{.*}}, %{{.*}} : i64
// CHECK: llvm.select %[[IN0]], %[[ROW]], %[[ZERO]] : i1, vector<4xi1>
// CHECK: llvm.insertvalue %{{.*}}[1] : !llvm.array<2 x vector<4xi1>>
func.func @create_mask_2d(%n: index, %m: index) -> vector<2x4xi1> {
  %0 = vector.create_mask %n, %m : vector<2x4xi1>
  return %0 : vector<2x4xi1>
}

// -----

// A pass-through takes the lanes the vector.mask masks off.
// CHECK-LABEL: func.func @passthru
// CHECK: %[[L:.*]] = llvm.call_intrinsic "llvm.masked.load.v4f32.p0"
// CHECK: llvm.select %{{.*}}, %[[L]], %{{.*}} : vector<4xi1>, vector<4xf32>
func.func @passthru(%m: memref<8xf32>, %i: index, %k: vector<4xi1>, %p: vector<4xf32>) -> vector<4xf32> {
  %pad = arith.constant 0.0 : f32
  %0 = vector.mask %k, %p { vector.transfer_read %m[%i], %pad {in_bounds = [true]} : memref<8xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}

// -----

// An outer product with an accumulator: one fused multiply-add per row.
// CHECK-LABEL: func.func @outer_acc
// CHECK-COUNT-2: llvm.intr.fmuladd
func.func @outer_acc(%a: vector<2xf32>, %b: vector<3xf32>, %c: vector<2x3xf32>) -> vector<2x3xf32> {
  %0 = vector.outerproduct %a, %b, %c : vector<2xf32>, vector<3xf32>
  return %0 : vector<2x3xf32>
}

// -----

// A mask over the iteration space: each step keeps the old row lanes where
// its points are masked off.
// CHECK-LABEL: func.func @masked_contract
// CHECK: %[[FMA:.*]] = llvm.intr.fmuladd
// CHECK: llvm.select %{{.*}}, %[[FMA]], %{{.*}} : vector<2xi1>, vector<2xf32>
// CHECK-NOT: vector.mask
func.func @masked_contract(%a: vector<2x2xf32>, %b: vector<2xf32>, %c: vector<2xf32>, %m: vector<2x2xi1>) -> vector<2xf32> {
  %0 = vector.mask %m { vector.contract {indexing_maps = [affine_map<(i, k) -> (i, k)>, affine_map<(i, k) -> (k)>, affine_map<(i, k) -> (i)>], iterator_types = ["parallel", "reduction"]} %a, %b, %c : vector<2x2xf32>, vector<2xf32> into vector<2xf32> } : vector<2x2xi1> -> vector<2xf32>
  return %0 : vector<2xf32>
}
