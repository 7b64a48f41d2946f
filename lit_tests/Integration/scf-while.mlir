// scf.while with two loop-carried values (Collatz steps of 27).

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [2] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[111,  1]

func.func private @printMemrefI64(memref<*xi64>)

// Collatz steps: while n != 1, n = n even ? n / 2 : 3n + 1.
func.func @main() {
  %out = memref.alloc() : memref<2xi64>
  %n0 = arith.constant 27 : i64
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %three = arith.constant 3 : i64
  %res:2 = scf.while (%n = %n0, %steps = %zero) : (i64, i64) -> (i64, i64) {
    %c = arith.cmpi ne, %n, %one : i64
    scf.condition(%c) %n, %steps : i64, i64
  } do {
  ^bb0(%n: i64, %steps: i64):
    %r = arith.remsi %n, %two : i64
    %even = arith.cmpi eq, %r, %zero : i64
    %half = arith.divsi %n, %two : i64
    %t = arith.muli %n, %three : i64
    %t1 = arith.addi %t, %one : i64
    %next = arith.select %even, %half, %t1 : i64
    %s1 = arith.addi %steps, %one : i64
    scf.yield %next, %s1 : i64, i64
  }
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  memref.store %res#1, %out[%c0] : memref<2xi64>
  memref.store %res#0, %out[%c1] : memref<2xi64>
  %u = memref.cast %out : memref<2xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %out : memref<2xi64>
  return
}
