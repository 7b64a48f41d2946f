// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// CHECK-LABEL: func.func @empty
func.func @empty(%m: index, %n: index) -> (tensor<?x4x?xf32>, tensor<4xf32>) {
  // CHECK: tensor.empty(%{{.*}}, %{{.*}}) : tensor<?x4x?xf32>
  %0 = tensor.empty(%m, %n) : tensor<?x4x?xf32>
  // CHECK: tensor.empty() : tensor<4xf32>
  %1 = tensor.empty() : tensor<4xf32>
  return %0, %1 : tensor<?x4x?xf32>, tensor<4xf32>
}

// CHECK-LABEL: func.func @extract_insert
func.func @extract_insert(%t: tensor<4x?xi32>, %i: index, %j: index, %v: i32) -> (i32, tensor<4x?xi32>) {
  // CHECK: tensor.extract %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x?xi32>
  %0 = tensor.extract %t[%i, %j] : tensor<4x?xi32>
  // CHECK: tensor.insert %{{.*}} into %{{.*}}[%{{.*}}, %{{.*}}] : tensor<4x?xi32>
  %1 = tensor.insert %v into %t[%i, %j] : tensor<4x?xi32>
  return %0, %1 : i32, tensor<4x?xi32>
}

// CHECK-LABEL: func.func @extract_0d
func.func @extract_0d(%t: tensor<f64>) -> f64 {
  // CHECK: tensor.extract %{{.*}}[] : tensor<f64>
  %0 = tensor.extract %t[] : tensor<f64>
  return %0 : f64
}

// CHECK-LABEL: func.func @slices
func.func @slices(%t: tensor<8x16x4xf32>, %o: index, %s: index, %st: index) {
  // CHECK: tensor.extract_slice %{{.*}}[0, 2, 0] [4, 4, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<4x4x4xf32>
  %0 = tensor.extract_slice %t[0, 2, 0] [4, 4, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<4x4x4xf32>
  // CHECK: tensor.extract_slice %{{.*}}[%{{.*}}, 4, %{{.*}}] [1, %{{.*}}, 1] [1, %{{.*}}, 1] : tensor<8x16x4xf32> to tensor<?xf32>
  %1 = tensor.extract_slice %t[%o, 4, %o] [1, %s, 1] [1, %st, 1] : tensor<8x16x4xf32> to tensor<?xf32>
  // Rank-reducing: the unit dimension 0 is dropped.
  // CHECK: tensor.extract_slice %{{.*}}[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<16x4xf32>
  %2 = tensor.extract_slice %t[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<8x16x4xf32> to tensor<16x4xf32>
  // CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<16x4xf32> into tensor<8x16x4xf32>
  %3 = tensor.insert_slice %2 into %t[0, 0, 0] [1, 16, 4] [1, 1, 1] : tensor<16x4xf32> into tensor<8x16x4xf32>
  // CHECK: tensor.insert_slice %{{.*}} into %{{.*}}[%{{.*}}, 4, %{{.*}}] [1, %{{.*}}, 1] [1, %{{.*}}, 1] : tensor<?xf32> into tensor<8x16x4xf32>
  %4 = tensor.insert_slice %1 into %t[%o, 4, %o] [1, %s, 1] [1, %st, 1] : tensor<?xf32> into tensor<8x16x4xf32>
  // CHECK: tensor.extract_slice %{{.*}}[1, 2, 3] [2, 2, 1] [3, 2, 1] {note = "kept"} : tensor<8x16x4xf32> to tensor<2x2x1xf32>
  %5 = tensor.extract_slice %t[1, 2, 3] [2, 2, 1] [3, 2, 1] {note = "kept"} : tensor<8x16x4xf32> to tensor<2x2x1xf32>
  return
}

// CHECK-LABEL: func.func @casts
func.func @casts(%u: tensor<*xf32>, %r: tensor<4x?xf32>, %b: tensor<4xui32>) {
  // CHECK: tensor.cast %{{.*}} : tensor<*xf32> to tensor<?x?xf32>
  %0 = tensor.cast %u : tensor<*xf32> to tensor<?x?xf32>
  // CHECK: tensor.cast %{{.*}} : tensor<?x?xf32> to tensor<4x?xf32>
  %1 = tensor.cast %0 : tensor<?x?xf32> to tensor<4x?xf32>
  // CHECK: tensor.cast %{{.*}} : tensor<4x?xf32> to tensor<*xf32>
  %2 = tensor.cast %r : tensor<4x?xf32> to tensor<*xf32>
  // CHECK: tensor.bitcast %{{.*}} : tensor<4xui32> to tensor<4xi32>
  %3 = tensor.bitcast %b : tensor<4xui32> to tensor<4xi32>
  // CHECK: tensor.bitcast %{{.*}} : tensor<4x?xf32> to tensor<*xi32>
  %4 = tensor.bitcast %r : tensor<4x?xf32> to tensor<*xi32>
  return
}

// CHECK-LABEL: func.func @dim_rank
func.func @dim_rank(%t: tensor<4x?xf32>, %u: tensor<*xf32>, %i: index) -> (index, index, index) {
  // CHECK: tensor.dim %{{.*}}, %{{.*}} : tensor<4x?xf32>
  %0 = tensor.dim %t, %i : tensor<4x?xf32>
  // CHECK: tensor.dim %{{.*}}, %{{.*}} : tensor<*xf32>
  %1 = tensor.dim %u, %i : tensor<*xf32>
  // CHECK: tensor.rank %{{.*}} : tensor<*xf32>
  %2 = tensor.rank %u : tensor<*xf32>
  return %0, %1, %2 : index, index, index
}

// CHECK-LABEL: func.func @reshapes
func.func @reshapes(%t: tensor<4x1xf32>, %s1: tensor<1xi32>, %u: tensor<*xf32>, %sd: tensor<?xindex>,
                    %d: tensor<?x32xf32>, %a: index, %b: index) {
  // CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<4x1xf32>, tensor<1xi32>) -> tensor<4xf32>
  %0 = tensor.reshape %t(%s1) : (tensor<4x1xf32>, tensor<1xi32>) -> tensor<4xf32>
  // CHECK: tensor.reshape %{{.*}}(%{{.*}}) : (tensor<*xf32>, tensor<?xindex>) -> tensor<*xf32>
  %1 = tensor.reshape %u(%sd) : (tensor<*xf32>, tensor<?xindex>) -> tensor<*xf32>
  // CHECK: tensor.expand_shape %{{.*}} {{\[\[}}0, 1], [2]] output_shape [%{{.*}}, %{{.*}}, 32] : tensor<?x32xf32> into tensor<?x?x32xf32>
  %2 = tensor.expand_shape %d [[0, 1], [2]] output_shape [%a, %b, 32] : tensor<?x32xf32> into tensor<?x?x32xf32>
  // CHECK: tensor.collapse_shape %{{.*}} {{\[\[}}0, 1], [2]] : tensor<?x?x32xf32> into tensor<?x32xf32>
  %3 = tensor.collapse_shape %2 [[0, 1], [2]] : tensor<?x?x32xf32> into tensor<?x32xf32>
  // CHECK: tensor.expand_shape %{{.*}} [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  %c = tensor.empty() : tensor<f32>
  %4 = tensor.expand_shape %c [] output_shape [1, 1] : tensor<f32> into tensor<1x1xf32>
  // CHECK: tensor.collapse_shape %{{.*}} [] : tensor<1x1xf32> into tensor<f32>
  %5 = tensor.collapse_shape %4 [] : tensor<1x1xf32> into tensor<f32>
  return
}

// CHECK-LABEL: func.func @elements
func.func @elements(%a: index, %b: index, %f: f32, %m: index) {
  // CHECK: tensor.from_elements %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : tensor<2x2xindex>
  %0 = tensor.from_elements %a, %b, %a, %b : tensor<2x2xindex>
  // CHECK: tensor.from_elements %{{.*}} : tensor<f32>
  %1 = tensor.from_elements %f : tensor<f32>
  // CHECK: tensor.splat %{{.*}} : tensor<8x16xf32>
  %2 = tensor.splat %f : tensor<8x16xf32>
  // CHECK: tensor.splat %{{.*}}[%{{.*}}, %{{.*}}] : tensor<?x20x?xf32>
  %3 = tensor.splat %f[%m, %m] : tensor<?x20x?xf32>
  return
}

// CHECK-LABEL: func.func @generate
func.func @generate(%m: index, %n: index) -> tensor<?x3x?xf32> {
  // CHECK: tensor.generate %{{.*}}, %{{.*}} {
  // CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
  // CHECK: tensor.yield %{{.*}} : f32
  // CHECK-NEXT: } : tensor<?x3x?xf32>
  %t = tensor.generate %m, %n {
  ^bb0(%i: index, %j: index, %k: index):
    %e = arith.constant 8.0 : f32
    tensor.yield %e : f32
  } : tensor<?x3x?xf32>
  return %t : tensor<?x3x?xf32>
}

// CHECK-LABEL: func.func @pad
func.func @pad(%t: tensor<1x2x2x?xf32>, %p: index, %v: f32, %s: tensor<2x3xf32>) {
  // CHECK: tensor.pad %{{.*}} low[2, %{{.*}}, 3, 3] high[3, 3, %{{.*}}, 2] {
  // CHECK-NEXT: ^bb0(%{{.*}}: index, %{{.*}}: index, %{{.*}}: index, %{{.*}}: index):
  // CHECK-NEXT: tensor.yield %{{.*}} : f32
  // CHECK-NEXT: } : tensor<1x2x2x?xf32> to tensor<6x?x?x?xf32>
  %0 = tensor.pad %t low[2, %p, 3, 3] high[3, 3, %p, 2] {
  ^bb0(%a: index, %b: index, %c: index, %d: index):
    tensor.yield %v : f32
  } : tensor<1x2x2x?xf32> to tensor<6x?x?x?xf32>
  // CHECK: tensor.pad %{{.*}} nofold low[0, 0] high[0, 0] {
  // CHECK: } : tensor<2x3xf32> to tensor<2x3xf32>
  %1 = tensor.pad %s nofold low[0, 0] high[0, 0] {
  ^bb0(%a: index, %b: index):
    tensor.yield %v : f32
  } : tensor<2x3xf32> to tensor<2x3xf32>
  return
}

// CHECK-LABEL: func.func @concat
func.func @concat(%a: tensor<3x6xf32>, %b: tensor<1x6xf32>, %c: tensor<3x?xf32>, %d: tensor<3x2xf32>) {
  // CHECK: tensor.concat dim(0) %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x6xf32>, tensor<3x6xf32>, tensor<1x6xf32>) -> tensor<7x6xf32>
  %0 = tensor.concat dim(0) %a, %a, %b : (tensor<3x6xf32>, tensor<3x6xf32>, tensor<1x6xf32>) -> tensor<7x6xf32>
  // CHECK: tensor.concat dim(1) %{{.*}}, %{{.*}}, %{{.*}} : (tensor<3x?xf32>, tensor<3x2xf32>, tensor<3x?xf32>) -> tensor<3x10xf32>
  %1 = tensor.concat dim(1) %c, %d, %c : (tensor<3x?xf32>, tensor<3x2xf32>, tensor<3x?xf32>) -> tensor<3x10xf32>
  return
}

// CHECK-LABEL: func.func @gather
func.func @gather(%src: tensor<4x5x6xf32>, %idx: tensor<1x2x2xindex>, %dyn: tensor<?x3xf32>, %didx: tensor<?x8x1xi32>) {
  // The gathered dimensions kept as 1 ...
  // CHECK: tensor.gather %{{.*}}[%{{.*}}] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<1x2x4x1x1xf32>
  %0 = tensor.gather %src[%idx] gather_dims([1, 2]) : (tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<1x2x4x1x1xf32>
  // ... or dropped (rank-reduced).
  // CHECK: tensor.gather %{{.*}}[%{{.*}}] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<1x2x4xf32>
  %1 = tensor.gather %src[%idx] gather_dims([1, 2]) unique : (tensor<4x5x6xf32>, tensor<1x2x2xindex>) -> tensor<1x2x4xf32>
  // Integer coordinates and dynamic sizes.
  // CHECK: tensor.gather %{{.*}}[%{{.*}}] gather_dims([0]) {note = "kept"} : (tensor<?x3xf32>, tensor<?x8x1xi32>) -> tensor<?x8x3xf32>
  %2 = tensor.gather %dyn[%didx] gather_dims([0]) {note = "kept"} : (tensor<?x3xf32>, tensor<?x8x1xi32>) -> tensor<?x8x3xf32>
  return
}

// CHECK-LABEL: func.func @scatter
func.func @scatter(%dest: tensor<4x5x6xf32>, %idx: tensor<3x1xindex>, %full: tensor<3x4x1x6xf32>, %reduced: tensor<3x4x6xf32>) {
  // CHECK: tensor.scatter %{{.*}} into %{{.*}}[%{{.*}}] scatter_dims([1]) unique : (tensor<3x4x1x6xf32>, tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<4x5x6xf32>
  %0 = tensor.scatter %full into %dest[%idx] scatter_dims([1]) unique : (tensor<3x4x1x6xf32>, tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<4x5x6xf32>
  // CHECK: tensor.scatter %{{.*}} into %{{.*}}[%{{.*}}] scatter_dims([1]) unique : (tensor<3x4x6xf32>, tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<4x5x6xf32>
  %1 = tensor.scatter %reduced into %dest[%idx] scatter_dims([1]) unique : (tensor<3x4x6xf32>, tensor<4x5x6xf32>, tensor<3x1xindex>) -> tensor<4x5x6xf32>
  return
}
