// A generic whose body reads another tensor (tensor.extract at computed
// indices, as embedding lookups and gathers lower): the read becomes a
// memref.load of that tensor's buffer.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries function-boundary-type-conversion=identity-layout-map})' | filecheck %s --check-prefix=BUF

// BUF-LABEL: func.func @lookup
// BUF: linalg.generic
// BUF: memref.load %arg0[%{{.*}}, %{{.*}}] : memref<4x3xf32>
// CHECK: [30,   31,   32,   10,   11,   12,   30,   31,   32]

func.func private @printMemrefF32(tensor<*xf32>)

func.func @lookup(%table: tensor<4x3xf32>, %ids: tensor<3xi32>) -> tensor<3x3xf32> {
  %e = tensor.empty() : tensor<3x3xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0)>, affine_map<(d0, d1) -> (d0, d1)>], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<3xi32>) outs(%e : tensor<3x3xf32>) {
  ^bb0(%id: i32, %o: f32):
    %row = arith.index_cast %id : i32 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<4x3xf32>
    linalg.yield %v : f32
  } -> tensor<3x3xf32>
  return %r : tensor<3x3xf32>
}

func.func @main() {
  %table = arith.constant dense<[[0.0, 1.0, 2.0], [10.0, 11.0, 12.0], [20.0, 21.0, 22.0], [30.0, 31.0, 32.0]]> : tensor<4x3xf32>
  %ids = arith.constant dense<[3, 1, 3]> : tensor<3xi32>
  %r = call @lookup(%table, %ids) : (tensor<4x3xf32>, tensor<3xi32>) -> tensor<3x3xf32>
  %flat = tensor.collapse_shape %r [[0, 1]] : tensor<3x3xf32> into tensor<9xf32>
  %u = tensor.cast %flat : tensor<9xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
