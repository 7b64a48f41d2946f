// A C-interface entry point on dynamically shaped memrefs from the caller:
// to_tensor, a broadcasting generic and a column reduction with shapes from
// tensor.dim, results copied into the caller's out-parameters.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @_mlir_ciface_main(ptr

#id = affine_map<(i, j) -> (i, j)>
#col = affine_map<(i, j) -> (j)>
func.func @main(%a: memref<?x?xf32>, %b: memref<?xf32>, %out: memref<?x?xf32>, %colsum: memref<?xf32>) attributes {llvm.emit_c_interface} {
  %ta = bufferization.to_tensor %a restrict : memref<?x?xf32> to tensor<?x?xf32>
  %tb = bufferization.to_tensor %b restrict : memref<?xf32> to tensor<?xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %m = tensor.dim %ta, %c0 : tensor<?x?xf32>
  %n = tensor.dim %ta, %c1 : tensor<?x?xf32>
  %e = tensor.empty(%m, %n) : tensor<?x?xf32>
  %r = linalg.generic {indexing_maps = [#id, #col, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ta, %tb : tensor<?x?xf32>, tensor<?xf32>) outs(%e : tensor<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %p = arith.mulf %x, %y : f32
    linalg.yield %p : f32
  } -> tensor<?x?xf32>
  %zero = arith.constant 0.0 : f32
  %e2 = tensor.empty(%n) : tensor<?xf32>
  %f = linalg.fill ins(%zero : f32) outs(%e2 : tensor<?xf32>) -> tensor<?xf32>
  %s = linalg.reduce ins(%r : tensor<?x?xf32>) outs(%f : tensor<?xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %t = arith.addf %in, %acc : f32
      linalg.yield %t : f32
    }
  %mr = bufferization.to_buffer %r : tensor<?x?xf32> to memref<?x?xf32>
  memref.copy %mr, %out : memref<?x?xf32> to memref<?x?xf32>
  %ms = bufferization.to_buffer %s : tensor<?xf32> to memref<?xf32>
  memref.copy %ms, %colsum : memref<?xf32> to memref<?xf32>
  return
}
