// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of arith ops in upstream MLIR's custom syntax (the ops and flags
// mlkit adds or changes over xDSL, and a sample of the rest); the same file is
// read by upstream MLIR in tests/test_dialect_arith.py.

// CHECK-LABEL: func.func @int_flags
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
func.func @int_flags(%a: i32, %b: i32) {
  // CHECK-NEXT: arith.divsi %[[A]], %[[B]] exact : i32
  %0 = arith.divsi %a, %b exact : i32
  // CHECK-NEXT: arith.divui %[[A]], %[[B]] exact : i32
  %1 = arith.divui %a, %b exact : i32
  // CHECK-NEXT: arith.shrsi %[[A]], %[[B]] exact : i32
  %2 = arith.shrsi %a, %b exact : i32
  // CHECK-NEXT: arith.shrui %[[A]], %[[B]] exact : i32
  %3 = arith.shrui %a, %b exact : i32
  // CHECK-NEXT: arith.divsi %[[A]], %[[B]] : i32
  %4 = arith.divsi %a, %b : i32
  // CHECK-NEXT: arith.addi %[[A]], %[[B]] overflow<nsw, nuw> : i32
  %5 = arith.addi %a, %b overflow<nsw, nuw> : i32
  // CHECK-NEXT: arith.ceildivsi %[[A]], %[[B]] : i32
  %6 = arith.ceildivsi %a, %b : i32
  // CHECK-NEXT: arith.remsi %[[A]], %[[B]] : i32
  %7 = arith.remsi %a, %b : i32
  return
}

// CHECK-LABEL: func.func @float_ops
// CHECK-SAME: (%[[X:.*]]: f32, %[[Y:.*]]: f32)
func.func @float_ops(%x: f32, %y: f32) {
  // CHECK-NEXT: arith.remf %[[X]], %[[Y]] : f32
  %0 = arith.remf %x, %y : f32
  // CHECK-NEXT: arith.remf %[[X]], %[[Y]] fastmath<fast> : f32
  %1 = arith.remf %x, %y fastmath<fast> : f32
  // CHECK-NEXT: arith.flush_denormals %[[X]] : f32
  %2 = arith.flush_denormals %x : f32
  // CHECK-NEXT: arith.flush_denormals %[[X]] fastmath<nnan,ninf> : f32
  %3 = arith.flush_denormals %x fastmath<nnan,ninf> : f32
  // CHECK-NEXT: arith.maxnumf %[[X]], %[[Y]] fastmath<nnan> : f32
  %4 = arith.maxnumf %x, %y fastmath<nnan> : f32
  return
}

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%[[A:.*]]: i32, %[[X:.*]]: f32, %[[D:.*]]: f64, %[[H:.*]]: f16, %[[I:.*]]: index)
func.func @casts(%a: i32, %x: f32, %d: f64, %h: f16, %i: index) {
  // CHECK-NEXT: arith.extui %[[A]] nneg : i32 to i64
  %0 = arith.extui %a nneg : i32 to i64
  // CHECK-NEXT: arith.extui %[[A]] : i32 to i64
  %1 = arith.extui %a : i32 to i64
  // CHECK-NEXT: arith.uitofp %[[A]] nneg : i32 to f32
  %2 = arith.uitofp %a nneg : i32 to f32
  // CHECK-NEXT: arith.index_castui %[[A]] nneg : i32 to index
  %3 = arith.index_castui %a nneg : i32 to index
  // CHECK-NEXT: arith.index_castui %[[I]] : index to i32
  %4 = arith.index_castui %i : index to i32
  // CHECK-NEXT: arith.trunci %[[A]] overflow<nsw> : i32 to i8
  %5 = arith.trunci %a overflow<nsw> : i32 to i8
  // CHECK-NEXT: arith.truncf %[[D]] to_nearest_even fastmath<contract> : f64 to f32
  %6 = arith.truncf %d to_nearest_even fastmath<contract> : f64 to f32
  // CHECK-NEXT: arith.truncf %[[D]] toward_zero : f64 to f32
  %7 = arith.truncf %d toward_zero : f64 to f32
  // CHECK-NEXT: arith.truncf %[[D]] : f64 to f32
  %8 = arith.truncf %d : f64 to f32
  // CHECK-NEXT: arith.extf %[[H]] fastmath<fast> : f16 to f32
  %9 = arith.extf %h fastmath<fast> : f16 to f32
  // CHECK-NEXT: arith.convertf %[[H]] : f16 to bf16
  %10 = arith.convertf %h : f16 to bf16
  // CHECK-NEXT: arith.extsi %[[A]] : i32 to i64
  %11 = arith.extsi %a : i32 to i64
  // CHECK-NEXT: arith.fptosi %[[X]] : f32 to i32
  %12 = arith.fptosi %x : f32 to i32
  // CHECK-NEXT: arith.fptoui %[[X]] : f32 to i32
  %13 = arith.fptoui %x : f32 to i32
  // CHECK-NEXT: arith.sitofp %[[A]] : i32 to f32
  %14 = arith.sitofp %a : i32 to f32
  // CHECK-NEXT: arith.index_cast %[[A]] : i32 to index
  %15 = arith.index_cast %a : i32 to index
  // CHECK-NEXT: arith.bitcast %[[A]] : i32 to f32
  %16 = arith.bitcast %a : i32 to f32
  return
}

// CHECK-LABEL: func.func @scaling
// CHECK-SAME: (%[[X:.*]]: f32, %[[S:.*]]: f8E8M0FNU, %[[E:.*]]: f8E4M3FN)
func.func @scaling(%x: f32, %s: f8E8M0FNU, %e: f8E4M3FN) {
  // CHECK-NEXT: arith.scaling_truncf %[[X]], %[[S]] : f32, f8E8M0FNU to f8E4M3FN
  %0 = arith.scaling_truncf %x, %s : f32, f8E8M0FNU to f8E4M3FN
  // CHECK-NEXT: arith.scaling_truncf %[[X]], %[[S]] downward fastmath<fast> : f32, f8E8M0FNU to f8E4M3FN
  %1 = arith.scaling_truncf %x, %s downward fastmath<fast> : f32, f8E8M0FNU to f8E4M3FN
  // CHECK-NEXT: arith.scaling_extf %[[E]], %[[S]] : f8E4M3FN, f8E8M0FNU to f32
  %2 = arith.scaling_extf %e, %s : f8E4M3FN, f8E8M0FNU to f32
  return
}

// CHECK-LABEL: func.func @shaped
// CHECK-SAME: (%[[V:.*]]: vector<4xi32>, %[[W:.*]]: vector<4xf32>, %[[T:.*]]: tensor<?xindex>, %[[C:.*]]: vector<4xi1>, %[[B:.*]]: i1)
func.func @shaped(%v: vector<4xi32>, %w: vector<4xf32>, %t: tensor<?xindex>, %c: vector<4xi1>, %b: i1) {
  // CHECK-NEXT: arith.extsi %[[V]] : vector<4xi32> to vector<4xi64>
  %0 = arith.extsi %v : vector<4xi32> to vector<4xi64>
  // CHECK-NEXT: arith.trunci %[[V]] : vector<4xi32> to vector<4xi8>
  %1 = arith.trunci %v : vector<4xi32> to vector<4xi8>
  // CHECK-NEXT: arith.fptosi %[[W]] : vector<4xf32> to vector<4xi32>
  %2 = arith.fptosi %w : vector<4xf32> to vector<4xi32>
  // CHECK-NEXT: arith.sitofp %[[V]] : vector<4xi32> to vector<4xf32>
  %3 = arith.sitofp %v : vector<4xi32> to vector<4xf32>
  // CHECK-NEXT: arith.index_cast %[[V]] : vector<4xi32> to vector<4xindex>
  %4 = arith.index_cast %v : vector<4xi32> to vector<4xindex>
  // CHECK-NEXT: arith.index_castui %[[T]] : tensor<?xindex> to tensor<?xi32>
  %5 = arith.index_castui %t : tensor<?xindex> to tensor<?xi32>
  // CHECK-NEXT: %[[CMP:.*]] = arith.cmpi slt, %[[V]], %[[V]] : vector<4xi32>
  %6 = arith.cmpi slt, %v, %v : vector<4xi32>
  // CHECK-NEXT: arith.cmpf olt, %[[W]], %[[W]] fastmath<fast> : vector<4xf32>
  %7 = arith.cmpf olt, %w, %w fastmath<fast> : vector<4xf32>
  // CHECK-NEXT: arith.select %[[CMP]], %[[V]], %[[V]] : vector<4xi1>, vector<4xi32>
  %8 = arith.select %6, %v, %v : vector<4xi1>, vector<4xi32>
  // CHECK-NEXT: arith.select %[[B]], %[[V]], %[[V]] : vector<4xi32>
  %9 = arith.select %b, %v, %v : vector<4xi32>
  // CHECK-NEXT: arith.cmpi eq, %[[V]], %[[V]] {tag} : vector<4xi32>
  %10 = arith.cmpi eq, %v, %v {tag} : vector<4xi32>
  // CHECK-NEXT: arith.select %[[C]], %[[W]], %[[W]] {tag} : vector<4xi1>, vector<4xf32>
  %11 = arith.select %c, %w, %w {tag} : vector<4xi1>, vector<4xf32>
  return
}

// CHECK-LABEL: func.func @memref_index_cast
func.func @memref_index_cast(%m: memref<4xi32>) {
  // CHECK-NEXT: arith.index_cast %{{.*}} : memref<4xi32> to memref<4xindex>
  %0 = arith.index_cast %m : memref<4xi32> to memref<4xindex>
  return
}
