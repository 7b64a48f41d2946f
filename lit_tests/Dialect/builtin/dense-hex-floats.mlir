// A hexadecimal literal in a dense float attribute is the element's bit
// pattern, as for a scalar float attribute: 0x7F800000 is +inf in f32.
// RUN: mlkit-opt %s --split-input-file --verify-diagnostics | filecheck %s
// RUN: mlkit-opt %s --split-input-file --verify-diagnostics -p 'builtin.module(lower-to-cpu)' | mlkit-run -e main -entry-point-result=void | filecheck %s --check-prefix=EXEC

func.func private @printMemrefF32(memref<*xf32>)

// CHECK-LABEL: func.func @main
// CHECK: dense<[{{0x7[fF]800000}}, {{0x[fF][fF]800000}}, 1.000000e+00, 0.000000e+00]> : tensor<4xf32>
// CHECK: dense<1.000000e+00> : tensor<2xf16>
// EXEC: [inf,  -inf,  1,  0]
func.func @main() {
  %c = arith.constant dense<[0x7F800000, 0xFF800000, 0x3F800000, 0x0]> : tensor<4xf32>
  %h = arith.constant dense<0x3C00> : tensor<2xf16>
  %m = bufferization.to_buffer %c : tensor<4xf32> to memref<4xf32>
  %u = memref.cast %m : memref<4xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}

// -----

func.func @too_wide() {
  // expected-error @+1 {{hexadecimal float constant out of range for type f32}}
  %c = arith.constant dense<[0x1FFFFFFFF, 0x0]> : tensor<2xf32>
  return
}
