// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// Errors of GPU kernels and launches that carry notes or parse errors, worded
// as upstream MLIR words them.

module attributes {gpu.container_module} {
  gpu.module @device {
    // expected-note @+1 {{see the kernel definition here}}
    memref.global "private" @table : memref<8xf32>
  }
  func.func @host(%n: index) {
    // expected-error @+1 {{referenced kernel '@device::@table' is not a function}}
    gpu.launch_func @device::@table blocks in (%n, %n, %n) threads in (%n, %n, %n)
    return
  }
}

// -----

module attributes {gpu.container_module} {
  func.func @host(%n: index, %p: memref<4xf32>) {
    // expected-error @+1 {{expected ')' in argument list}}
    gpu.launch_func @device::@k blocks in (%n, %n, %n) threads in (%n, %n, %n) args(%p : memref<4xf32> %n : index)
    return
  }
}

// -----

gpu.module @device {
  // expected-error @+1 {{attribute 'function_type' failed to satisfy constraint: type attribute of function type}}
  "gpu.func"() ({
    gpu.return
  }) {sym_name = "k", function_type = i64} : () -> ()
}

// -----

gpu.module @device {
  // expected-error @+1 {{'gpu.func' op gpu.known_grid_size must be a dense i32 array}}
  gpu.func @k() kernel attributes {gpu.known_grid_size = array<i64: 1, 1, 1>} {
    gpu.return
  }
}

// -----

gpu.module @device {
  // expected-error @+1 {{'gpu.func' op gpu.known_block_size must contain exactly 3 elements}}
  gpu.func @k() kernel attributes {gpu.known_block_size = array<i32: 128>} {
    gpu.return
  }
}
