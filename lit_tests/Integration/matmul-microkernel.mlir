// linalg-matmul-to-microkernel on odd, tiny and dynamic sizes (1, 7, 33,
// 100 x 37 x 129, 200 x 150 x 300), at the host's vector width, at 256 and 128
// bits, and with small cache blocks that run every edge path. The operands
// hold small integers, so every sum is exact in f32 whatever its order; each
// size prints the largest difference from a scalar matmul (a generic the
// pass does not take for one) and a corner of the result.

// RUN: mlkit-opt %s -p 'builtin.module(linalg-matmul-to-microkernel, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void -O3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(linalg-matmul-to-microkernel{vector-bits=256}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(linalg-matmul-to-microkernel{vector-bits=128 kc=16 mc=24 nc=40}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:size 1 x 1 x 1
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [1, 1] strides = [1, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[0]]
// CHECK-NEXT:size 7 x 7 x 7
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[4,   -2,   -2],
// CHECK-NEXT{LITERAL}: [-1,   3,   -2]]
// CHECK-NEXT:size 33 x 33 x 33
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[21,   -11,   -10],
// CHECK-NEXT{LITERAL}: [-10,   21,   -11]]
// CHECK-NEXT:size 100 x 37 x 129
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[85,   -43,   -42],
// CHECK-NEXT{LITERAL}: [-42,   85,   -43]]
// CHECK-NEXT:size 200 x 150 x 300
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [1] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0]
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[199,   -100,   -99],
// CHECK-NEXT{LITERAL}: [-99,   199,   -100]]

#id2 = affine_map<(d0, d1) -> (d0, d1)>
#lhs = affine_map<(d0, d1, d2) -> (d0, d2)>
#rhs = affine_map<(d0, d1, d2) -> (d2, d1)>
#out = affine_map<(d0, d1, d2) -> (d0, d1)>
#all = affine_map<(d0, d1) -> (0)>
func.func private @printMemrefF32(memref<*xf32>)
func.func private @printString(!llvm.ptr)

// x[i, j] = (i * a + j * b) mod 3 - 1
func.func @fill(%x: memref<?x?xf32>, %a: index, %b: index) {
  linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%x : memref<?x?xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %ia = arith.muli %i, %a : index
    %jb = arith.muli %j, %b : index
    %s = arith.addi %ia, %jb : index
    %c3 = arith.constant 3 : index
    %r = arith.remui %s, %c3 : index
    %w = arith.index_cast %r : index to i64
    %f = arith.sitofp %w : i64 to f32
    %one = arith.constant 1.0 : f32
    %v = arith.subf %f, %one : f32
    linalg.yield %v : f32
  }
  return
}

func.func @mm(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// The same product with a body the pass does not match (a multiply by one).
func.func @reference(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.generic {indexing_maps = [#lhs, #rhs, #out], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>) {
  ^bb0(%x: f32, %y: f32, %o: f32):
    %one = arith.constant 1.0 : f32
    %m = arith.mulf %x, %y : f32
    %m1 = arith.mulf %m, %one : f32
    %s = arith.addf %o, %m1 : f32
    linalg.yield %s : f32
  }
  return
}

func.func @max_difference(%x: memref<?x?xf32>, %y: memref<?x?xf32>, %d: memref<1xf32>) {
  linalg.generic {indexing_maps = [#id2, #id2, #all], iterator_types = ["reduction", "reduction"]}
      ins(%x, %y : memref<?x?xf32>, memref<?x?xf32>) outs(%d : memref<1xf32>) {
  ^bb0(%a: f32, %b: f32, %o: f32):
    %s = arith.subf %a, %b : f32
    %abs = math.absf %s : f32
    %m = arith.maximumf %abs, %o : f32
    linalg.yield %m : f32
  }
  return
}

func.func @case(%m: index, %n: index, %k: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %c7 = arith.constant 7 : index
  %a = memref.alloc(%m, %k) : memref<?x?xf32>
  %b = memref.alloc(%k, %n) : memref<?x?xf32>
  %c = memref.alloc(%m, %n) : memref<?x?xf32>
  %r = memref.alloc(%m, %n) : memref<?x?xf32>
  func.call @fill(%a, %c1, %c2) : (memref<?x?xf32>, index, index) -> ()
  func.call @fill(%b, %c2, %c1) : (memref<?x?xf32>, index, index) -> ()
  func.call @fill(%c, %c5, %c7) : (memref<?x?xf32>, index, index) -> ()
  func.call @fill(%r, %c5, %c7) : (memref<?x?xf32>, index, index) -> ()
  func.call @mm(%a, %b, %c) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  func.call @reference(%a, %b, %r) : (memref<?x?xf32>, memref<?x?xf32>, memref<?x?xf32>) -> ()
  %d = memref.alloc() : memref<1xf32>
  %zero = arith.constant 0.0 : f32
  memref.store %zero, %d[%c0] : memref<1xf32>
  func.call @max_difference(%c, %r, %d) : (memref<?x?xf32>, memref<?x?xf32>, memref<1xf32>) -> ()
  %du = memref.cast %d : memref<1xf32> to memref<*xf32>
  func.call @printMemrefF32(%du) : (memref<*xf32>) -> ()
  %rows = arith.minsi %m, %c2 : index
  %cols = arith.minsi %n, %c3 : index
  %corner = memref.subview %c[0, 0] [%rows, %cols] [1, 1] : memref<?x?xf32> to memref<?x?xf32, strided<[?, 1]>>
  %copy = memref.alloc(%rows, %cols) : memref<?x?xf32>
  memref.copy %corner, %copy : memref<?x?xf32, strided<[?, 1]>> to memref<?x?xf32>
  %cu = memref.cast %copy : memref<?x?xf32> to memref<*xf32>
  func.call @printMemrefF32(%cu) : (memref<*xf32>) -> ()
  memref.dealloc %copy : memref<?x?xf32>
  memref.dealloc %d : memref<1xf32>
  memref.dealloc %a : memref<?x?xf32>
  memref.dealloc %b : memref<?x?xf32>
  memref.dealloc %c : memref<?x?xf32>
  memref.dealloc %r : memref<?x?xf32>
  return
}

llvm.mlir.global internal constant @s1("size 1 x 1 x 1\0A\00")
llvm.mlir.global internal constant @s7("size 7 x 7 x 7\0A\00")
llvm.mlir.global internal constant @s33("size 33 x 33 x 33\0A\00")
llvm.mlir.global internal constant @s100("size 100 x 37 x 129\0A\00")
llvm.mlir.global internal constant @s200("size 200 x 150 x 300\0A\00")

func.func @main() {
  %c1 = arith.constant 1 : index
  %c7 = arith.constant 7 : index
  %c33 = arith.constant 33 : index
  %c37 = arith.constant 37 : index
  %c100 = arith.constant 100 : index
  %c129 = arith.constant 129 : index
  %c150 = arith.constant 150 : index
  %c200 = arith.constant 200 : index
  %c300 = arith.constant 300 : index
  %p1 = llvm.mlir.addressof @s1 : !llvm.ptr
  func.call @printString(%p1) : (!llvm.ptr) -> ()
  func.call @case(%c1, %c1, %c1) : (index, index, index) -> ()
  %p7 = llvm.mlir.addressof @s7 : !llvm.ptr
  func.call @printString(%p7) : (!llvm.ptr) -> ()
  func.call @case(%c7, %c7, %c7) : (index, index, index) -> ()
  %p33 = llvm.mlir.addressof @s33 : !llvm.ptr
  func.call @printString(%p33) : (!llvm.ptr) -> ()
  func.call @case(%c33, %c33, %c33) : (index, index, index) -> ()
  %p100 = llvm.mlir.addressof @s100 : !llvm.ptr
  func.call @printString(%p100) : (!llvm.ptr) -> ()
  func.call @case(%c100, %c37, %c129) : (index, index, index) -> ()
  %p200 = llvm.mlir.addressof @s200 : !llvm.ptr
  func.call @printString(%p200) : (!llvm.ptr) -> ()
  func.call @case(%c200, %c150, %c300) : (index, index, index) -> ()
  return
}
