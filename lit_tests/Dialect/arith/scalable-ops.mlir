// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Valid casts and selects on scalable vectors, unranked tensors and
// encoded tensors survive a round trip.

// CHECK-LABEL: func.func @scalable_casts
func.func @scalable_casts(%h: vector<[4]xf16>, %i: vector<2x[4]xi32>, %x: vector<[2]xindex>) {
  // CHECK: arith.extf %{{.*}} : vector<[4]xf16> to vector<[4]xf32>
  %0 = arith.extf %h : vector<[4]xf16> to vector<[4]xf32>
  // CHECK: arith.truncf %{{.*}} : vector<[4]xf32> to vector<[4]xf16>
  %1 = arith.truncf %0 : vector<[4]xf32> to vector<[4]xf16>
  // CHECK: arith.sitofp %{{.*}} : vector<2x[4]xi32> to vector<2x[4]xf32>
  %2 = arith.sitofp %i : vector<2x[4]xi32> to vector<2x[4]xf32>
  // CHECK: arith.fptoui %{{.*}} : vector<2x[4]xf32> to vector<2x[4]xi8>
  %3 = arith.fptoui %2 : vector<2x[4]xf32> to vector<2x[4]xi8>
  // CHECK: arith.extsi %{{.*}} : vector<2x[4]xi8> to vector<2x[4]xi64>
  %4 = arith.extsi %3 : vector<2x[4]xi8> to vector<2x[4]xi64>
  // CHECK: arith.trunci %{{.*}} : vector<2x[4]xi64> to vector<2x[4]xi16>
  %5 = arith.trunci %4 : vector<2x[4]xi64> to vector<2x[4]xi16>
  // CHECK: arith.bitcast %{{.*}} : vector<2x[4]xi16> to vector<2x[4]xf16>
  %6 = arith.bitcast %5 : vector<2x[4]xi16> to vector<2x[4]xf16>
  // CHECK: arith.index_cast %{{.*}} : vector<[2]xindex> to vector<[2]xi32>
  %7 = arith.index_cast %x : vector<[2]xindex> to vector<[2]xi32>
  // CHECK: arith.index_castui %{{.*}} : vector<[2]xi32> to vector<[2]xindex>
  %8 = arith.index_castui %7 : vector<[2]xi32> to vector<[2]xindex>
  return
}

// CHECK-LABEL: func.func @encoded_and_unranked
func.func @encoded_and_unranked(%t: tensor<3xf32, "enc">, %c: tensor<3xi1, "enc">,
                                %uc: tensor<*xi1>, %u: tensor<*xi8>) {
  // CHECK: arith.extf %{{.*}} : tensor<3xf32, "enc"> to tensor<3xf64, "enc">
  %0 = arith.extf %t : tensor<3xf32, "enc"> to tensor<3xf64, "enc">
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<3xi1, "enc">, tensor<3xf32, "enc">
  %1 = arith.select %c, %t, %t : tensor<3xi1, "enc">, tensor<3xf32, "enc">
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : tensor<*xi1>, tensor<*xi8>
  %2 = arith.select %uc, %u, %u : tensor<*xi1>, tensor<*xi8>
  return
}

// CHECK-LABEL: func.func @scalable_select
func.func @scalable_select(%c: vector<[4]xi1>, %b: i1, %v: vector<[4]xi32>) {
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<[4]xi1>, vector<[4]xi32>
  %0 = arith.select %c, %v, %v : vector<[4]xi1>, vector<[4]xi32>
  // CHECK: arith.select %{{.*}}, %{{.*}}, %{{.*}} : vector<[4]xi32>
  %1 = arith.select %b, %v, %v : vector<[4]xi32>
  return
}
