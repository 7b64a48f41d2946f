// Polynomial approximations run: math functions on vector<8xf32> and on
// scalars (a linalg.generic body) rewritten by the pass, then lowered with
// lower-to-cpu. Values print to runner-utils' 6 significant digits; each
// flag row says, lane by lane, whether the f32 approximation lies within
// 4e-6 * max(|ref|, 0.1) of the same function computed in f64 (which the
// pass leaves to the C math library).

// RUN: mlkit-opt %s -p 'builtin.module(test-math-polynomial-approximation, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(test-math-polynomial-approximation, lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void -O3 \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// Rows: tanh, exp, expm1, erf, sin, cos, atan, cbrt (of x); log, log2, log1p
// (of p); asin, acos (of a); atan2(x, q). sin(-0.5), sin(-0.001) and cos(-1.5)
// are off in the sixth digit, as upstream's are: the argument is reduced by
// a multiple of pi/2 rounded to f32.
// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [14, 8] strides = [8, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-0.999329,   -0.905148,   -0.462117,   -0.001,   0,   0.244919,   0.761594,   0.995055],
// CHECK-NEXT{LITERAL}: [0.0183156,   0.22313,   0.606531,   0.999,   1,   1.28403,   2.71828,   20.0855],
// CHECK-NEXT{LITERAL}: [-0.981684,   -0.77687,   -0.393469,   -0.0009995,   0,   0.284025,   1.71828,   19.0855],
// CHECK-NEXT{LITERAL}: [-1,   -0.966105,   -0.5205,   -0.00112838,   0,   0.276326,   0.842701,   0.999978],
// CHECK-NEXT{LITERAL}: [0.756802,   -0.997495,   -0.479425,   -0.000999978,   0,   0.247404,   0.841471,   0.14112],
// CHECK-NEXT{LITERAL}: [-0.653644,   0.0707373,   0.877583,   1,   1,   0.968912,   0.540302,   -0.989992],
// CHECK-NEXT{LITERAL}: [-1.32582,   -0.982794,   -0.463648,   -0.001,   0,   0.244979,   0.785398,   1.24905],
// CHECK-NEXT{LITERAL}: [-1.5874,   -1.14471,   -0.793701,   -0.1,   0,   0.629961,   1,   1.44225],
// CHECK-NEXT{LITERAL}: [-6.90776,   -2.30259,   -0.693147,   0,   0.693147,   2.30259,   6.90776,   69.0776],
// CHECK-NEXT{LITERAL}: [-9.96578,   -3.32193,   -1,   0,   1,   3.32193,   9.96578,   99.6578],
// CHECK-NEXT{LITERAL}: [0.0009995,   0.0953102,   0.405465,   0.693147,   1.09861,   2.3979,   6.90875,   69.0776],
// CHECK-NEXT{LITERAL}: [-1.5708,   -1.11977,   -0.523599,   -0.001,   0,   0.25268,   0.848062,   1.5708],
// CHECK-NEXT{LITERAL}: [3.14159,   2.69057,   2.0944,   1.5718,   1.5708,   1.31812,   0.722734,   0],
// CHECK-NEXT{LITERAL}: [-1.32582,   -2.1588,   -0.244979,   -3.14109,   0,   3.05845,   1.10715,   1.73594]]

// Every lane of every function is within tolerance.
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [14, 8] strides = [8, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1],
// CHECK-NEXT{LITERAL}: [1,   1,   1,   1,   1,   1,   1,   1]]

// The scalar path (tanh, exp, log |x|, erf) gives what the vector path gives.
// CHECK-NEXT:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [4, 8] strides = [8, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[-0.999329,   -0.905148,   -0.462117,   -0.001,   0,   0.244919,   0.761594,   0.995055],
// CHECK-NEXT{LITERAL}: [0.0183156,   0.22313,   0.606531,   0.999,   1,   1.28403,   2.71828,   20.0855],
// CHECK-NEXT{LITERAL}: [1.38629,   0.405465,   -0.693147,   -6.90776,   -inf,   -1.38629,   0,   1.09861],
// CHECK-NEXT{LITERAL}: [-1,   -0.966105,   -0.5205,   -0.00112838,   0,   0.276326,   0.842701,   0.999978]]

// Nothing is left to the math library in f32.
// RUN: mlkit-opt %s -p 'builtin.module(test-math-polynomial-approximation, lower-to-cpu)' \
// RUN: | filecheck %s --check-prefix=LIBM

// LIBM-NOT: llvm.func @{{.*}}(f32
// LIBM-NOT: llvm.intr.{{(exp|exp2|expm1|log|log2|log1p|sin|cos|tanh|atan|atan2|asin|acos)}}({{.*}}f32

#id = affine_map<(d0) -> (d0)>
func.func private @printMemrefF32(memref<*xf32>)

// 1.0 where |a - r| <= 4e-6 * max(|r|, 0.1), else 0.0
func.func @close(%a: vector<8xf32>, %r: vector<8xf64>) -> vector<8xf32> {
  %ad = arith.extf %a : vector<8xf32> to vector<8xf64>
  %d = arith.subf %ad, %r : vector<8xf64>
  %e = math.absf %d : vector<8xf64>
  %m = math.absf %r : vector<8xf64>
  %lo = arith.constant dense<0.1> : vector<8xf64>
  %mm = arith.maximumf %m, %lo : vector<8xf64>
  %rel = arith.constant dense<4.0e-6> : vector<8xf64>
  %tol = arith.mulf %mm, %rel : vector<8xf64>
  %ok = arith.cmpf ole, %e, %tol : vector<8xf64>
  %one = arith.constant dense<1.0> : vector<8xf32>
  %zero = arith.constant dense<0.0> : vector<8xf32>
  %flag = arith.select %ok, %one, %zero : vector<8xi1>, vector<8xf32>
  return %flag : vector<8xf32>
}

// The scalar path: tanh, exp, log and erf of each element.
func.func @scalars(%in: memref<8xf32>, %out: memref<4x8xf32>) {
  %t = memref.subview %out[0, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1]>>
  %e = memref.subview %out[1, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 8>>
  %l = memref.subview %out[2, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 16>>
  %r = memref.subview %out[3, 0] [1, 8] [1, 1] : memref<4x8xf32> to memref<8xf32, strided<[1], offset: 24>>
  linalg.generic {indexing_maps = [#id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%in : memref<8xf32>)
      outs(%t, %e, %l, %r : memref<8xf32, strided<[1]>>, memref<8xf32, strided<[1], offset: 8>>,
                            memref<8xf32, strided<[1], offset: 16>>, memref<8xf32, strided<[1], offset: 24>>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32, %o2: f32, %o3: f32):
    %0 = math.tanh %x : f32
    %1 = math.exp %x : f32
    %ax = math.absf %x : f32
    %2 = math.log %ax : f32
    %3 = math.erf %x : f32
    linalg.yield %0, %1, %2, %3 : f32, f32, f32, f32
  }
  return
}

func.func @main() {
  %c0 = arith.constant 0 : index
  %x = arith.constant dense<[-4.0, -1.5, -0.5, -0.001, 0.0, 0.25, 1.0, 3.0]> : vector<8xf32>
  %p = arith.constant dense<[0.001, 0.1, 0.5, 1.0, 2.0, 10.0, 1000.0, 1.0e30]> : vector<8xf32>
  %a = arith.constant dense<[-1.0, -0.9, -0.5, -0.001, 0.0, 0.25, 0.75, 1.0]> : vector<8xf32>
  %q = arith.constant dense<[1.0, -1.0, 2.0, -2.0, 1.0, -3.0, 0.5, -0.5]> : vector<8xf32>
  %xd = arith.extf %x : vector<8xf32> to vector<8xf64>
  %pd = arith.extf %p : vector<8xf32> to vector<8xf64>
  %ad = arith.extf %a : vector<8xf32> to vector<8xf64>
  %qd = arith.extf %q : vector<8xf32> to vector<8xf64>
  %values = memref.alloca() : memref<14x8xf32>
  %flags = memref.alloca() : memref<14x8xf32>

  // tanh
  %v0 = math.tanh %x : vector<8xf32>
  %r0 = math.tanh %xd : vector<8xf64>
  %k0 = call @close(%v0, %r0) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i0 = arith.constant 0 : index
  vector.store %v0, %values[%i0, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k0, %flags[%i0, %c0] : memref<14x8xf32>, vector<8xf32>
  // exp
  %v1 = math.exp %x : vector<8xf32>
  %r1 = math.exp %xd : vector<8xf64>
  %k1 = call @close(%v1, %r1) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i1 = arith.constant 1 : index
  vector.store %v1, %values[%i1, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k1, %flags[%i1, %c0] : memref<14x8xf32>, vector<8xf32>
  // expm1
  %v2 = math.expm1 %x : vector<8xf32>
  %r2 = math.expm1 %xd : vector<8xf64>
  %k2 = call @close(%v2, %r2) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i2 = arith.constant 2 : index
  vector.store %v2, %values[%i2, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k2, %flags[%i2, %c0] : memref<14x8xf32>, vector<8xf32>
  // erf
  %v3 = math.erf %x : vector<8xf32>
  %r3 = math.erf %xd : vector<8xf64>
  %k3 = call @close(%v3, %r3) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i3 = arith.constant 3 : index
  vector.store %v3, %values[%i3, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k3, %flags[%i3, %c0] : memref<14x8xf32>, vector<8xf32>
  // sin
  %v4 = math.sin %x : vector<8xf32>
  %r4 = math.sin %xd : vector<8xf64>
  %k4 = call @close(%v4, %r4) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i4 = arith.constant 4 : index
  vector.store %v4, %values[%i4, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k4, %flags[%i4, %c0] : memref<14x8xf32>, vector<8xf32>
  // cos
  %v5 = math.cos %x : vector<8xf32>
  %r5 = math.cos %xd : vector<8xf64>
  %k5 = call @close(%v5, %r5) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i5 = arith.constant 5 : index
  vector.store %v5, %values[%i5, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k5, %flags[%i5, %c0] : memref<14x8xf32>, vector<8xf32>
  // atan
  %v6 = math.atan %x : vector<8xf32>
  %r6 = math.atan %xd : vector<8xf64>
  %k6 = call @close(%v6, %r6) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i6 = arith.constant 6 : index
  vector.store %v6, %values[%i6, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k6, %flags[%i6, %c0] : memref<14x8xf32>, vector<8xf32>
  // cbrt
  %v7 = math.cbrt %x : vector<8xf32>
  %r7 = math.cbrt %xd : vector<8xf64>
  %k7 = call @close(%v7, %r7) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i7 = arith.constant 7 : index
  vector.store %v7, %values[%i7, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k7, %flags[%i7, %c0] : memref<14x8xf32>, vector<8xf32>
  // log
  %v8 = math.log %p : vector<8xf32>
  %r8 = math.log %pd : vector<8xf64>
  %k8 = call @close(%v8, %r8) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i8 = arith.constant 8 : index
  vector.store %v8, %values[%i8, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k8, %flags[%i8, %c0] : memref<14x8xf32>, vector<8xf32>
  // log2
  %v9 = math.log2 %p : vector<8xf32>
  %r9 = math.log2 %pd : vector<8xf64>
  %k9 = call @close(%v9, %r9) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i9 = arith.constant 9 : index
  vector.store %v9, %values[%i9, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k9, %flags[%i9, %c0] : memref<14x8xf32>, vector<8xf32>
  // log1p
  %v10 = math.log1p %p : vector<8xf32>
  %r10 = math.log1p %pd : vector<8xf64>
  %k10 = call @close(%v10, %r10) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i10 = arith.constant 10 : index
  vector.store %v10, %values[%i10, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k10, %flags[%i10, %c0] : memref<14x8xf32>, vector<8xf32>
  // asin
  %v11 = math.asin %a : vector<8xf32>
  %r11 = math.asin %ad : vector<8xf64>
  %k11 = call @close(%v11, %r11) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i11 = arith.constant 11 : index
  vector.store %v11, %values[%i11, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k11, %flags[%i11, %c0] : memref<14x8xf32>, vector<8xf32>
  // acos
  %v12 = math.acos %a : vector<8xf32>
  %r12 = math.acos %ad : vector<8xf64>
  %k12 = call @close(%v12, %r12) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i12 = arith.constant 12 : index
  vector.store %v12, %values[%i12, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k12, %flags[%i12, %c0] : memref<14x8xf32>, vector<8xf32>
  // atan2
  %v13 = math.atan2 %x, %q : vector<8xf32>
  %r13 = math.atan2 %xd, %qd : vector<8xf64>
  %k13 = call @close(%v13, %r13) : (vector<8xf32>, vector<8xf64>) -> vector<8xf32>
  %i13 = arith.constant 13 : index
  vector.store %v13, %values[%i13, %c0] : memref<14x8xf32>, vector<8xf32>
  vector.store %k13, %flags[%i13, %c0] : memref<14x8xf32>, vector<8xf32>

  %uv = memref.cast %values : memref<14x8xf32> to memref<*xf32>
  call @printMemrefF32(%uv) : (memref<*xf32>) -> ()
  %uf = memref.cast %flags : memref<14x8xf32> to memref<*xf32>
  call @printMemrefF32(%uf) : (memref<*xf32>) -> ()

  %in = memref.alloca() : memref<8xf32>
  vector.store %x, %in[%c0] : memref<8xf32>, vector<8xf32>
  %out = memref.alloca() : memref<4x8xf32>
  call @scalars(%in, %out) : (memref<8xf32>, memref<4x8xf32>) -> ()
  %uo = memref.cast %out : memref<4x8xf32> to memref<*xf32>
  call @printMemrefF32(%uo) : (memref<*xf32>) -> ()
  return
}
