// scf.for with iter_args and an scf.if yielding a value.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 1 offset = 0 sizes = [10] strides = [1] data = {{$}}
// CHECK-NEXT{LITERAL}:[0,  -1,  -1,  2,  -3,  -5,  8,  -13,  -21,  34]

func.func private @printMemrefI64(memref<*xi64>)

// Fibonacci numbers, with odd ones negated by an scf.if.
func.func @main() {
  %m = memref.alloc() : memref<10xi64>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c10 = arith.constant 10 : index
  %zero = arith.constant 0 : i64
  %one = arith.constant 1 : i64
  %two = arith.constant 2 : i64
  %r:2 = scf.for %i = %c0 to %c10 step %c1 iter_args(%a = %zero, %b = %one) -> (i64, i64) {
    %rem = arith.remsi %a, %two : i64
    %odd = arith.cmpi ne, %rem, %zero : i64
    %v = scf.if %odd -> (i64) {
      %n = arith.subi %zero, %a : i64
      scf.yield %n : i64
    } else {
      scf.yield %a : i64
    }
    memref.store %v, %m[%i] : memref<10xi64>
    %next = arith.addi %a, %b : i64
    scf.yield %b, %next : i64, i64
  }
  %u = memref.cast %m : memref<10xi64> to memref<*xi64>
  call @printMemrefI64(%u) : (memref<*xi64>) -> ()
  memref.dealloc %m : memref<10xi64>
  return
}
