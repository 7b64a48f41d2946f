// linalg.batch_matmul on 3-D tensors filled from linalg.index.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id3 = affine_map<(b, i, j) -> (b, i, j)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @ramp3(%t: tensor<?x?x?xf32>, %sb: f32, %si: f32, %sj: f32) -> tensor<?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id3], iterator_types = ["parallel", "parallel", "parallel"]} outs(%t : tensor<?x?x?xf32>) {
  ^bb0(%o: f32):
    %b = linalg.index 0 : index
    %i = linalg.index 1 : index
    %j = linalg.index 2 : index
    %bi = arith.index_cast %b : index to i64
    %ii = arith.index_cast %i : index to i64
    %ji = arith.index_cast %j : index to i64
    %fb = arith.sitofp %bi : i64 to f32
    %fi = arith.sitofp %ii : i64 to f32
    %fj = arith.sitofp %ji : i64 to f32
    %x = arith.mulf %fb, %sb : f32
    %y = arith.mulf %fi, %si : f32
    %z = arith.mulf %fj, %sj : f32
    %s0 = arith.addf %x, %y : f32
    %s = arith.addf %s0, %z : f32
    linalg.yield %s : f32
  } -> tensor<?x?x?xf32>
  return %r : tensor<?x?x?xf32>
}

func.func @main() {
  %c1 = arith.constant 1.0 : f32
  %c2 = arith.constant 2.0 : f32
  %cm = arith.constant -0.5 : f32
  %c3 = arith.constant 0.125 : f32
  %zero = arith.constant 0.0 : f32
  %ea = tensor.empty() : tensor<2x3x4xf32>
  %eb = tensor.empty() : tensor<2x4x5xf32>
  %da = tensor.cast %ea : tensor<2x3x4xf32> to tensor<?x?x?xf32>
  %db = tensor.cast %eb : tensor<2x4x5xf32> to tensor<?x?x?xf32>
  %ra = call @ramp3(%da, %c2, %c1, %cm) : (tensor<?x?x?xf32>, f32, f32, f32) -> tensor<?x?x?xf32>
  %rb = call @ramp3(%db, %c1, %c3, %c2) : (tensor<?x?x?xf32>, f32, f32, f32) -> tensor<?x?x?xf32>
  %a = tensor.cast %ra : tensor<?x?x?xf32> to tensor<2x3x4xf32>
  %b = tensor.cast %rb : tensor<?x?x?xf32> to tensor<2x4x5xf32>
  %e = tensor.empty() : tensor<2x3x5xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %r = linalg.batch_matmul ins(%a, %b : tensor<2x3x4xf32>, tensor<2x4x5xf32>) outs(%f : tensor<2x3x5xf32>) -> tensor<2x3x5xf32>
  %u = tensor.cast %r : tensor<2x3x5xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
