// RUN: mlkit-opt %s -split-input-file -convert-arith-to-llvm | filecheck %s

// An op on a 2-D vector works on each row of the array of 1-D vectors the
// vector becomes, keeping its flags.
// CHECK-LABEL: func.func @rows
//       CHECK: %[[P:.*]] = llvm.mlir.poison : !llvm.array<2 x vector<3xf32>>
//       CHECK: %[[A0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<3xf32>>
//  CHECK-NEXT: %[[B0:.*]] = llvm.extractvalue %{{.*}}[0] : !llvm.array<2 x vector<3xf32>>
//  CHECK-NEXT: %[[S0:.*]] = llvm.fadd %[[A0]], %[[B0]] {fastmathFlags = #llvm.fastmath<fast>} : vector<3xf32>
//  CHECK-NEXT: %[[R0:.*]] = llvm.insertvalue %[[S0]], %[[P]][0] : !llvm.array<2 x vector<3xf32>>
//  CHECK-NEXT: %[[A1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<3xf32>>
//  CHECK-NEXT: %[[B1:.*]] = llvm.extractvalue %{{.*}}[1] : !llvm.array<2 x vector<3xf32>>
//  CHECK-NEXT: %[[S1:.*]] = llvm.fadd %[[A1]], %[[B1]] {fastmathFlags = #llvm.fastmath<fast>} : vector<3xf32>
//  CHECK-NEXT: llvm.insertvalue %[[S1]], %[[R0]][1] : !llvm.array<2 x vector<3xf32>>
func.func @rows(%a: vector<2x3xf32>, %b: vector<2x3xf32>) -> vector<2x3xf32> {
  %s = arith.addf %a, %b fastmath<fast> : vector<2x3xf32>
  return %s : vector<2x3xf32>
}

// -----

// Compares, casts and a select with a scalar condition, in three dimensions;
// the condition is shared by every row.
// CHECK-LABEL: func.func @kinds
//  CHECK-SAME: (%{{.*}}: vector<2x2x4xi32>, %{{.*}}: vector<2x2x4xi32>, %[[C:.*]]: i1)
//   CHECK-COUNT-4: llvm.icmp "slt" %{{.*}}, %{{.*}} : vector<4xi32>
//   CHECK-COUNT-4: llvm.sitofp %{{.*}} : vector<4xi32> to vector<4xf32>
//   CHECK-COUNT-4: llvm.select %[[C]], %{{.*}}, %{{.*}} : i1, vector<4xi32>
//   CHECK-NOT: arith.
func.func @kinds(%a: vector<2x2x4xi32>, %b: vector<2x2x4xi32>, %c: i1) -> (vector<2x2x4xi1>, vector<2x2x4xf32>, vector<2x2x4xi32>) {
  %lt = arith.cmpi slt, %a, %b : vector<2x2x4xi32>
  %f = arith.sitofp %a : vector<2x2x4xi32> to vector<2x2x4xf32>
  %s = arith.select %c, %a, %b : vector<2x2x4xi32>
  return %lt, %f, %s : vector<2x2x4xi1>, vector<2x2x4xf32>, vector<2x2x4xi32>
}

// -----

// Left alone: the two-result ops on n-D vectors, and ops on tensors.
// CHECK-LABEL: func.func @left
//       CHECK: arith.mulsi_extended %{{.*}}, %{{.*}} : vector<2x4xi32>
//       CHECK: arith.addi %{{.*}}, %{{.*}} : tensor<2x4xi32>
func.func @left(%a: vector<2x4xi32>, %t: tensor<2x4xi32>) -> (vector<2x4xi32>, tensor<2x4xi32>) {
  %lo, %hi = arith.mulsi_extended %a, %a : vector<2x4xi32>
  %u = arith.addi %t, %t : tensor<2x4xi32>
  return %lo, %u : vector<2x4xi32>, tensor<2x4xi32>
}
