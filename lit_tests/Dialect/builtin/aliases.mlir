// Affine maps and integer sets print as aliases above the top-level op, as
// mlir-opt prints them: numbered per kind in the order printed, maps before
// sets, shared by every use; --mlir-print-local-scope prints them in place.
// RUN: mlkit-opt %s --split-input-file | filecheck %s
// RUN: mlkit-opt %s --split-input-file --mlir-print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: mlkit-opt %s --split-input-file --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL
// RUN: mlkit-opt %s --split-input-file | mlkit-opt --split-input-file --mlir-print-local-scope | filecheck %s --check-prefix=LOCAL

// The alias defined in the input is not kept: aliases are named on output.
#unused = affine_map<(d0) -> (d0 + 5)>
#scale = affine_map<(d0) -> (d0 * 3)>

// CHECK: #map = affine_map<(d0) -> (d0 + 2)>
// CHECK-NEXT: #map1 = affine_map<(d0) -> (d0 * 3)>
// CHECK-NEXT: #map2 = affine_map<(d0)[s0] -> (d0 + s0)>
// CHECK-NEXT: #set = affine_set<(d0) : (d0 - 2 >= 0)>
// CHECK-NEXT: module {
// CHECK: func.func @f(%arg0: index, %arg1: memref<4xf32, #map>)
// CHECK: affine.apply #map1(%arg2)
// CHECK: affine.apply #map2(%arg2)[%arg0]
// CHECK: affine.if #set(%arg2)
// CHECK: affine.for %{{.*}} = 0 to #map1(%arg0)
// CHECK-NOT: affine_map
// CHECK: // -----

// Generic form prints the loop bounds as attributes, so they get aliases too;
// they are named after what the loop body uses, as upstream's dry run visits
// an op's regions before its attributes.
// GENERIC: #map = affine_map<(d0) -> (d0 + 2)>
// GENERIC-NEXT: #map1 = affine_map<(d0) -> (d0 * 3)>
// GENERIC-NEXT: #map2 = affine_map<(d0)[s0] -> (d0 + s0)>
// GENERIC-NEXT: #map3 = affine_map<() -> (0)>
// GENERIC-NEXT: #map4 = affine_map<() -> (10)>
// GENERIC: #set = affine_set<(d0) : (d0 - 2 >= 0)>
// GENERIC-NEXT: "builtin.module"() ({

// LOCAL-NOT: #map
// LOCAL: func.func @f(%arg0: index, %arg1: memref<4xf32, affine_map<(d0) -> (d0 + 2)>>)
// LOCAL: affine.apply affine_map<(d0) -> (d0 * 3)>(%arg2)
// LOCAL: affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%arg2)
func.func @f(%c: index, %m: memref<4xf32, affine_map<(d0) -> (d0 + 2)>>) {
  affine.for %i = 0 to 10 {
    %x = affine.apply #scale(%i)
    %y = affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%i)[%c]
    affine.if affine_set<(d0) : (d0 - 2 >= 0)>(%i) { }
  }
  affine.for %i = 0 to affine_map<(d0) -> (d0 * 3)>(%c) { }
  return
}

// -----

// Each chunk names its own aliases, from #map again; one map used twice has
// one alias.
// CHECK: #map = affine_map<(d0) -> (d0)>
// CHECK-NEXT: module {
// CHECK: indexing_maps = [#map, #map]
// LOCAL: indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>]
func.func @g(%a: tensor<4xf32>) -> tensor<4xf32> {
  %0 = linalg.generic {indexing_maps = [affine_map<(d0) -> (d0)>, affine_map<(d0) -> (d0)>], iterator_types = ["parallel"]} ins(%a : tensor<4xf32>) outs(%a : tensor<4xf32>) {
  ^bb0(%x: f32, %y: f32):
    linalg.yield %x : f32
  } -> tensor<4xf32>
  return %0 : tensor<4xf32>
}

// -----

// With no map or set, nothing precedes the module.
// CHECK: // -----
// CHECK-NEXT: module {
// CHECK-NEXT: func.func @h()
func.func @h() {
  return
}
