// A memref program that frees its own buffers: the ownership-based
// deallocation of lower-to-cpu rejects it, as upstream's does, and
// lower-to-cpu{deallocation=false} lowers it as written.
// RUN: not mlkit-opt %s -p 'builtin.module(lower-to-cpu)' 2>&1 | filecheck %s --check-prefix=ERR
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' --emit=llvm | filecheck %s

// ERR: lower-to-cpu-deallocation.mlir:[[# @LINE + 15]]:3: error: No deallocation operations must be present when running this pass!

// CHECK-LABEL: define void @main()
// CHECK: call ptr @malloc
// CHECK: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr
// CHECK: call void @free
// CHECK-NOT: call void @free

func.func private @printMemrefF32(memref<*xf32>)
func.func @main() {
  %m = memref.alloc() : memref<2xf32>
  %c = arith.constant 1.5 : f32
  linalg.fill ins(%c : f32) outs(%m : memref<2xf32>)
  %u = memref.cast %m : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  memref.dealloc %m : memref<2xf32>
  return
}
