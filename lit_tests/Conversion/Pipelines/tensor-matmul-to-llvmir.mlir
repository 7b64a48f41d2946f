// The upstream CPU pipeline, with mlkit's passes only, takes tensors and linalg
// to the llvm dialect, and LLVM verifies the translated module.
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' | filecheck %s --check-prefix=LLVMDIALECT
// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-affine-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-arith-to-llvm, convert-func-to-llvm, finalize-memref-to-llvm, convert-cf-to-llvm, reconcile-unrealized-casts)' --emit=llvm | filecheck %s --check-prefix=LLVMIR

// LLVMDIALECT: llvm.mlir.global private constant @__constant_2x2xf32
// LLVMDIALECT-LABEL: llvm.func @main()
// LLVMDIALECT-NOT: linalg.
// LLVMDIALECT-NOT: memref.
// LLVMDIALECT: llvm.call @printMemrefF32
// LLVMIR: declare void @printMemrefF32(i64, ptr)
// LLVMIR: define void @main()
// LLVMIR: fmul float
// LLVMIR: fadd float
// LLVMIR: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf32>
  %b = arith.constant dense<[[5.0, 6.0], [7.0, 8.0]]> : tensor<2x2xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x2xf32>
  %c = linalg.fill ins(%zero : f32) outs(%e : tensor<2x2xf32>) -> tensor<2x2xf32>
  %r = linalg.matmul ins(%a, %b : tensor<2x2xf32>, tensor<2x2xf32>) outs(%c : tensor<2x2xf32>) -> tensor<2x2xf32>
  %s = tensor.extract_slice %r[0, 0] [1, 2] [1, 1] : tensor<2x2xf32> to tensor<1x2xf32>
  %u = tensor.cast %r : tensor<2x2xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
