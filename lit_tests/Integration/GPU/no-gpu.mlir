// UNSUPPORTED: cuda-gpu
// Without a usable GPU, a program that launches kernels is one error line
// and exit code 1, not a crash.
// RUN: mlkit-opt %S/saxpy.mlir -p 'builtin.module(gpu-lower-to-nvvm-pipeline{cubin-format=isa},convert-to-llvm,reconcile-unrealized-casts)' -o %t.mlir
// RUN: not mlkit-run %t.mlir -e main -entry-point-result=void -shared-libs=libmlir_cuda_runtime.so 2>&1 | filecheck %s
// CHECK: mlkit-run: error: the program calls the GPU runtime (mgpu{{[A-Za-z]+}}), but {{.+}}
