// Dense resources, as torch-mlir writes weights: the data lives in the file's
// dialect_resources section and is read into an ordinary dense attribute.
// RUN: mlkit-opt %s --split-input-file | filecheck %s
// RUN: mlkit-opt %s --split-input-file -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s --check-prefix=LLVM

// CHECK-LABEL: func.func @weights
// CHECK:         arith.constant dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>
// CHECK:         arith.constant dense<[7, -1]> : tensor<2xi32>
// CHECK-NOT:     dense_resource
// LLVM:          [float 1.000000e+00, float 2.000000e+00]
func.func @weights() -> (tensor<2xf32>, tensor<2xi32>) {
  %0 = arith.constant dense_resource<w> : tensor<2xf32>
  %1 = arith.constant dense_resource<ints> : tensor<2xi32>
  return %0, %1 : tensor<2xf32>, tensor<2xi32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F00000040",
      ints: "0x0400000007000000FFFFFFFF"
    }
  }
#-}

// -----

// The same key in the next chunk has its own data.
// CHECK-LABEL: func.func @again
// CHECK:         arith.constant dense<3.000000e+00> : tensor<2xf32>
func.func @again() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000404000004040"
    }
  }
#-}
