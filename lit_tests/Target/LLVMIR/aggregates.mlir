// RUN: mlkit-translate --mlir-to-llvmir --split-input-file %s | filecheck %s
// RUN: mlkit-opt %s --split-input-file --emit=llvm | filecheck %s

// Aggregate and vector element ops, and the constant ops: scalars of every
// float kind, dense vectors and arrays, structs from arrays, undef, poison, zero.

// Aggregate ops on constants fold into constants, as upstream's IR builder folds them.
// CHECK-LABEL: define { i32, [2 x float] } @aggregates({ i32, [2 x float] } %0, float %1, ptr %2)
// CHECK-NEXT: %4 = extractvalue { i32, [2 x float] } %0, 1, 0
// CHECK-NEXT: %5 = insertvalue { i32, [2 x float] } %0, float %1, 1, 1
// CHECK-NEXT: %6 = insertvalue { i32, [2 x float] } poison, float %4, 1, 0
// CHECK-NEXT: store { i32, [2 x float] } { i32 7, [2 x float] undef }, ptr %2, align 4
// CHECK-NEXT: store { i32, [2 x float] } { i32 7, [2 x float] [float undef, float 2.000000e+00] }, ptr %2, align 4
// CHECK-NEXT: store i32 0, ptr %2, align 4
// CHECK-NEXT: ret { i32, [2 x float] } %5
llvm.func @aggregates(%s: !llvm.struct<(i32, array<2 x f32>)>, %f: f32, %ptr: !llvm.ptr) -> !llvm.struct<(i32, array<2 x f32>)> {
  %0 = llvm.extractvalue %s[1, 0] : !llvm.struct<(i32, array<2 x f32>)>
  %1 = llvm.insertvalue %f, %s[1, 1] : !llvm.struct<(i32, array<2 x f32>)>
  %u = llvm.mlir.undef : !llvm.struct<(i32, array<2 x f32>)>
  %c = llvm.mlir.constant(7 : i32) : i32
  %2 = llvm.insertvalue %c, %u[0] : !llvm.struct<(i32, array<2 x f32>)>
  %p = llvm.mlir.poison : !llvm.struct<(i32, array<2 x f32>)>
  %3 = llvm.insertvalue %0, %p[1, 0] : !llvm.struct<(i32, array<2 x f32>)>
  %z = llvm.mlir.zero : !llvm.struct<(i32, array<2 x f32>)>
  %4 = llvm.extractvalue %z[0] : !llvm.struct<(i32, array<2 x f32>)>
  %two = llvm.mlir.constant(2.0 : f32) : f32
  %5 = llvm.insertvalue %two, %2[1, 1] : !llvm.struct<(i32, array<2 x f32>)>
  llvm.store %2, %ptr {alignment = 4 : i64} : !llvm.struct<(i32, array<2 x f32>)>, !llvm.ptr
  llvm.store %5, %ptr {alignment = 4 : i64} : !llvm.struct<(i32, array<2 x f32>)>, !llvm.ptr
  llvm.store %4, %ptr {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return %1 : !llvm.struct<(i32, array<2 x f32>)>
}

// -----

// CHECK-LABEL: define <4 x float> @vectors(<4 x float> %0, float %1, i32 %2)
// CHECK-NEXT: %4 = extractelement <4 x float> %0, i32 %2
// CHECK-NEXT: %5 = insertelement <4 x float> %0, float %1, i32 %2
// CHECK-NEXT: %6 = shufflevector <4 x float> %0, <4 x float> %5, <4 x i32> <i32 0, i32 poison, i32 7, i32 2>
// CHECK-NEXT: %7 = shufflevector <4 x float> %0, <4 x float> %0, <2 x i32> <i32 3, i32 1>
// CHECK-NEXT: ret <4 x float> %6
llvm.func @vectors(%v: vector<4xf32>, %f: f32, %i: i32) -> vector<4xf32> {
  %0 = llvm.extractelement %v[%i : i32] : vector<4xf32>
  %1 = llvm.insertelement %f, %v[%i : i32] : vector<4xf32>
  %2 = llvm.shufflevector %v, %1 [0, -1, 7, 2] : vector<4xf32>
  %3 = llvm.shufflevector %v, %v [3, 1] : vector<4xf32>
  llvm.return %2 : vector<4xf32>
}

// -----

// CHECK-LABEL: define void @scalar_constants(ptr %0)
// CHECK-NEXT: store i1 true, ptr %0, align 1
// CHECK-NEXT: store i8 -1, ptr %0, align 1
// CHECK-NEXT: store i64 -42, ptr %0, align 8
// CHECK-NEXT: store i128 170141183460469231731687303715884105727, ptr %0, align 16
// CHECK-NEXT: store half 0xH3E00, ptr %0, align 2
// CHECK-NEXT: store bfloat 0xR3FC0, ptr %0, align 2
// CHECK-NEXT: store float 0x3FB99999A0000000, ptr %0, align 4
// CHECK-NEXT: store double 1.000000e-01, ptr %0, align 8
// CHECK-NEXT: store x86_fp80 0xK3FFFC000000000000000, ptr %0, align 16
// CHECK-NEXT: store fp128 0xL00000000000000004000800000000000, ptr %0, align 16
// CHECK-NEXT: store double -0.000000e+00, ptr %0, align 8
// CHECK-NEXT: store ptr null, ptr %0, align 8
// CHECK-NEXT: store i32 0, ptr %0, align 4
// CHECK-NEXT: store float 0.000000e+00, ptr %0, align 4
llvm.func @scalar_constants(%p: !llvm.ptr) {
  %0 = llvm.mlir.constant(true) : i1
  llvm.store %0, %p {alignment = 1 : i64} : i1, !llvm.ptr
  %1 = llvm.mlir.constant(255 : i8) : i8
  llvm.store %1, %p {alignment = 1 : i64} : i8, !llvm.ptr
  %2 = llvm.mlir.constant(-42 : i64) : i64
  llvm.store %2, %p {alignment = 8 : i64} : i64, !llvm.ptr
  %3 = llvm.mlir.constant(170141183460469231731687303715884105727 : i128) : i128
  llvm.store %3, %p {alignment = 16 : i64} : i128, !llvm.ptr
  %4 = llvm.mlir.constant(1.5 : f16) : f16
  llvm.store %4, %p {alignment = 2 : i64} : f16, !llvm.ptr
  %5 = llvm.mlir.constant(1.5 : bf16) : bf16
  llvm.store %5, %p {alignment = 2 : i64} : bf16, !llvm.ptr
  %6 = llvm.mlir.constant(0.1 : f32) : f32
  llvm.store %6, %p {alignment = 4 : i64} : f32, !llvm.ptr
  %7 = llvm.mlir.constant(0.1 : f64) : f64
  llvm.store %7, %p {alignment = 8 : i64} : f64, !llvm.ptr
  %8 = llvm.mlir.constant(1.5 : f80) : f80
  llvm.store %8, %p {alignment = 16 : i64} : f80, !llvm.ptr
  %9 = llvm.mlir.constant(3.0 : f128) : f128
  llvm.store %9, %p {alignment = 16 : i64} : f128, !llvm.ptr
  %12 = llvm.mlir.constant(-0.0 : f64) : f64
  llvm.store %12, %p {alignment = 8 : i64} : f64, !llvm.ptr
  %13 = llvm.mlir.zero : !llvm.ptr
  llvm.store %13, %p {alignment = 8 : i64} : !llvm.ptr, !llvm.ptr
  %14 = llvm.mlir.zero : i32
  llvm.store %14, %p {alignment = 4 : i64} : i32, !llvm.ptr
  %15 = llvm.mlir.zero : f32
  llvm.store %15, %p {alignment = 4 : i64} : f32, !llvm.ptr
  llvm.return
}

// -----

// CHECK-LABEL: define void @aggregate_constants(ptr %0)
// CHECK-NEXT: store <4 x float> <float 1.000000e+00, float 2.000000e+00, float 3.000000e+00, float 4.000000e+00>, ptr %0, align 16
// CHECK-NEXT: store <4 x i32> splat (i32 7), ptr %0, align 16
// CHECK-NEXT: store <2 x i1> <i1 true, i1 false>, ptr %0, align 1
// CHECK-NEXT: store [2 x [2 x i8]] {{\[}}[2 x i8] c"\01\02", [2 x i8] c"\03\04"], ptr %0, align 1
// CHECK-NEXT: store [2 x <2 x float>] [<2 x float> <float 1.000000e+00, float 2.000000e+00>, <2 x float> <float 3.000000e+00, float 4.000000e+00>], ptr %0, align 8
// CHECK-NEXT: store { i32, float } { i32 1, float 2.500000e+00 }, ptr %0, align 4
// CHECK-NEXT: store [3 x i8] c"ab\00", ptr %0, align 1
llvm.func @aggregate_constants(%p: !llvm.ptr) {
  %0 = llvm.mlir.constant(dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>) : vector<4xf32>
  llvm.store %0, %p {alignment = 16 : i64} : vector<4xf32>, !llvm.ptr
  %1 = llvm.mlir.constant(dense<7> : vector<4xi32>) : vector<4xi32>
  llvm.store %1, %p {alignment = 16 : i64} : vector<4xi32>, !llvm.ptr
  %2 = llvm.mlir.constant(dense<[true, false]> : vector<2xi1>) : vector<2xi1>
  llvm.store %2, %p {alignment = 1 : i64} : vector<2xi1>, !llvm.ptr
  %3 = llvm.mlir.constant(dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>) : !llvm.array<2 x array<2 x i8>>
  llvm.store %3, %p {alignment = 1 : i64} : !llvm.array<2 x array<2 x i8>>, !llvm.ptr
  %4 = llvm.mlir.constant(dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>) : !llvm.array<2 x vector<2xf32>>
  llvm.store %4, %p {alignment = 8 : i64} : !llvm.array<2 x vector<2xf32>>, !llvm.ptr
  %5 = llvm.mlir.constant([1 : i32, 2.5 : f32]) : !llvm.struct<(i32, f32)>
  llvm.store %5, %p {alignment = 4 : i64} : !llvm.struct<(i32, f32)>, !llvm.ptr
  %6 = llvm.mlir.constant("ab\00") : !llvm.array<3 x i8>
  llvm.store %6, %p {alignment = 1 : i64} : !llvm.array<3 x i8>, !llvm.ptr
  llvm.return
}
