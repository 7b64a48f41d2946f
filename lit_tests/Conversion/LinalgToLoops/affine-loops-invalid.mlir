// RUN: mlkit-opt %s --split-input-file -convert-linalg-to-affine-loops --verify-diagnostics

// A loop bound that is neither a valid affine symbol nor a valid dim (the size
// of a view taken inside a non-affine loop) makes an invalid affine.for, and the
// pass fails at the linalg op, as upstream's does.

func.func @not_a_symbol(%a: memref<?xf32>, %x: f32, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    %v = memref.subview %a[0] [%i] [1] : memref<?xf32> to memref<?xf32, strided<[1]>>
    // expected-error @+1 {{'affine.for' op operand cannot be used as a dimension id}}
    linalg.fill ins(%x : f32) outs(%v : memref<?xf32, strided<[1]>>)
  }
  return
}
