// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'w' to encode alignment in first 4 bytes}}
      w: "0x0400"
    }
  }
#-}

// -----

func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'w' to encode alignment in first 4 bytes, but got non-power-of-2 value: 3}}
      w: "0x030000000000803F00000040"
    }
  }
#-}

// -----

func.func @f() -> tensor<2xf32> {
  %0 = arith.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      // expected-error @+1 {{expected hex string blob for key 'w'}}
      w: "zz"
    }
  }
#-}

// -----

func.func @f() -> tensor<2xf32> {
  // expected-error @+1 {{dense_resource<w> holds 4 bytes of data, but tensor<2xf32> needs 8}}
  %0 = arith.constant dense_resource<w> : tensor<2xf32>
  return %0 : tensor<2xf32>
}
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F"
    }
  }
#-}
