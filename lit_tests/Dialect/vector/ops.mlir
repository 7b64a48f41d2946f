// Round trip of the vector ops contractions need, in upstream's custom form.
// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// CHECK-LABEL: func.func @contract
// CHECK: vector.contract {indexing_maps = [{{.*}}], iterator_types = ["parallel", "parallel", "reduction"], kind = #vector.kind<add>} %{{.*}}, %{{.*}}, %{{.*}} : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
// CHECK: kind = #vector.kind<maxsi>} {{.*}} : vector<3xi32>, vector<3xi32> into i32
func.func @contract(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x4xf32>,
                    %x: vector<3xi32>, %s: i32) -> (vector<2x4xf32>, i32) {
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  %1 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxsi>} %x, %x, %s : vector<3xi32>, vector<3xi32> into i32
  return %0, %1 : vector<2x4xf32>, i32
}

// CHECK-LABEL: func.func @outerproduct
// CHECK: vector.outerproduct %{{.*}}, %{{.*}} : vector<4xf32>, vector<3xf32>
// CHECK: vector.outerproduct %{{.*}}, %{{.*}}, %{{.*}} {kind = #vector.kind<maxnumf>} : vector<4xf32>, f32
func.func @outerproduct(%x: vector<4xf32>, %y: vector<3xf32>, %s: f32) -> (vector<4x3xf32>, vector<4xf32>) {
  %0 = vector.outerproduct %x, %y : vector<4xf32>, vector<3xf32>
  %1 = vector.outerproduct %x, %s, %x {kind = #vector.kind<maxnumf>} : vector<4xf32>, f32
  return %0, %1 : vector<4x3xf32>, vector<4xf32>
}

// CHECK-LABEL: func.func @mask
// CHECK: vector.mask %{{.*}} { vector.transfer_read {{.*}} : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
// CHECK: vector.mask %{{.*}}, %{{.*}} { vector.transfer_read
// CHECK: vector.mask %{{.*}} { vector.transfer_write {{.*}} } : vector<4xi1>
// CHECK: vector.create_mask %{{.*}}, %{{.*}} : vector<2x4xi1>
func.func @mask(%m: vector<4xi1>, %mem: memref<?xf32>, %i: index, %v: vector<4xf32>) -> (vector<4xf32>, vector<4xf32>) {
  %pad = arith.constant 0.0 : f32
  %0 = vector.mask %m { vector.transfer_read %mem[%i], %pad : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  %1 = vector.mask %m, %v { vector.transfer_read %mem[%i], %pad {in_bounds = [true]} : memref<?xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.mask %m { vector.transfer_write %v, %mem[%i] : vector<4xf32>, memref<?xf32> } : vector<4xi1>
  %2 = vector.create_mask %i, %i : vector<2x4xi1>
  return %0, %1 : vector<4xf32>, vector<4xf32>
}

// CHECK-LABEL: func.func @print
// CHECK: vector.print %{{.*}} : vector<4xf32>
// CHECK-NEXT: vector.print %{{.*}} : f32 punctuation <comma>
// CHECK-NEXT: vector.print{{$}}
// CHECK-NEXT: vector.print str "hello"
func.func @print(%v: vector<4xf32>, %s: f32) {
  vector.print %v : vector<4xf32>
  vector.print %s : f32 punctuation <comma>
  vector.print punctuation <newline>
  vector.print str "hello"
  return
}
