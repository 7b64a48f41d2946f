// RUN: mlkit-opt %s -p 'builtin.module(gpu.module(convert-gpu-to-nvvm))' | filecheck %s
// As upstream, the reductions of a function with one that is not uniform are
// not rewritten (upstream then fails to convert them; mlkit leaves them).

// CHECK-LABEL: llvm.func @not_uniform(
// CHECK:         gpu.all_reduce add

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @not_uniform(%x: memref<?xf32>) kernel {
      %tx = gpu.thread_id x
      %v = memref.load %x[%tx] : memref<?xf32>
      %s = gpu.all_reduce add %v {} : (f32) -> f32
      memref.store %s, %x[%tx] : memref<?xf32>
      gpu.return
    }
  }
}
