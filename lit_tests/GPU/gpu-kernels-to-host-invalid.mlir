// RUN: mlkit-opt %s -split-input-file -gpu-kernels-to-host --verify-diagnostics

// What has no host copy is an error at the op.

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @warp(%x: memref<32xf32>) kernel {
      %lane = gpu.lane_id
      %v = memref.load %x[%lane] : memref<32xf32>
      %w = arith.constant 32 : i32
      %o = arith.constant 1 : i32
      // expected-error @+1 {{gpu-kernels-to-host: 'gpu.shuffle' has no host equivalent here}}
      %s, %ok = gpu.shuffle xor %v, %o, %w : f32
      memref.store %s, %x[%lane] : memref<32xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @divergent(%x: memref<?xf32>) kernel {
      %c0 = arith.constant 0 : index
      %tx = gpu.thread_id x
      %first = arith.cmpi eq, %tx, %c0 : index
      // expected-error @+1 {{gpu-kernels-to-host: gpu.barrier under a condition that threads compute for themselves is not supported}}
      scf.if %first {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @loaded_bound(%x: memref<?xindex>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %n = memref.load %x[%c0] : memref<?xindex>
      // expected-error @+1 {{gpu-kernels-to-host: gpu.barrier under loop bounds that threads compute for themselves is not supported}}
      scf.for %i = %c0 to %n step %c1 {
        gpu.barrier
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @while_barrier(%b: i1) kernel {
      // expected-error @+1 {{gpu-kernels-to-host: gpu.barrier inside 'scf.while' is not supported (only scf.for and scf.if without results)}}
      scf.while () : () -> () {
        gpu.barrier
        scf.condition(%b)
      } do {
        scf.yield
      }
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{gpu-kernels-to-host: private memory in a kernel with gpu.barrier is not supported}}
    gpu.func @private(%x: memref<?xf32>) private(%p: memref<4xf32, #gpu.address_space<private>>) kernel {
      gpu.barrier
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @view(%x: memref<?xf32>, %n: index) kernel {
      %tx = gpu.thread_id x
      // expected-error @+1 {{gpu-kernels-to-host: a memref that a thread computes before a gpu.barrier and uses after it is not supported}}
      %v = memref.subview %x[%tx] [%n] [1] : memref<?xf32> to memref<?xf32, strided<[1], offset: ?>>
      gpu.barrier
      %c0 = arith.constant 0 : index
      %f = memref.load %v[%c0] : memref<?xf32, strided<[1], offset: ?>>
      memref.store %f, %x[%tx] : memref<?xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    func.func @helper(%x: f32) -> f32 {
      return %x : f32
    }
    gpu.func @calls(%x: memref<1xf32>) kernel {
      %c0 = arith.constant 0 : index
      %v = memref.load %x[%c0] : memref<1xf32>
      // expected-error @+1 {{gpu-kernels-to-host: a kernel that uses @helper of its gpu.module is not supported}}
      %w = func.call @helper(%v) : (f32) -> f32
      memref.store %w, %x[%c0] : memref<1xf32>
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    // expected-error @+1 {{gpu-kernels-to-host: a kernel must be one block}}
    gpu.func @blocks(%b: i1) kernel {
      cf.cond_br %b, ^bb1, ^bb1
    ^bb1:
      gpu.return
    }
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @carried_memref(%x: memref<?xf32>, %n: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      // expected-error @+1 {{gpu-kernels-to-host: a loop around gpu.barrier that carries memrefs is not supported}}
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%m = %x) -> (memref<?xf32>) {
        gpu.barrier
        scf.yield %m : memref<?xf32>
      }
      gpu.return
    }
  }
}
