// linalg.contract, run: a matmul with B transposed (C[m, n] += A[m, k] * B[n, k])
// and a batched vector-matrix product, through lower-to-cpu and through the
// plain lowering (generalized, bufferized, loops). A third contraction at odd
// sizes (33 x 40 x 37), big enough for lower-to-cpu's matmul kernel, is checked
// against linalg.matmul of the explicitly transposed operand; the operands hold
// small integers, so both sums are exact in f32 and must agree bit for bit.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines
// RUN: mlkit-opt %s -p 'builtin.module(linalg-generalize-named-ops, one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 4] strides = [4, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[4,   4,   0,   3],
// CHECK-NEXT{LITERAL}: [10,   10,   3,   7.5]]
// CHECK:Unranked Memref base@ = {{.*}} rank = 2 offset = 0 sizes = [2, 3] strides = [3, 1] data = {{$}}
// CHECK-NEXT{LITERAL}:[[10,   13,   16],
// CHECK-NEXT{LITERAL}: [4,   0,   6]]
// CHECK:Unranked Memref base@ = {{.*}} rank = 0 offset = 0 sizes = [] strides = [] data = {{$}}
// CHECK-NEXT:[0]

#a = affine_map<(m, n, k) -> (m, k)>
#bt = affine_map<(m, n, k) -> (n, k)>
#c = affine_map<(m, n, k) -> (m, n)>
#id = affine_map<(i, j) -> (i, j)>
#tr = affine_map<(i, j) -> (j, i)>

func.func private @printMemrefF32(tensor<*xf32>)

// an operand of small integers: ((i * 7 + j * 3 + seed) mod 11) - 5
func.func @pattern(%rows: index, %cols: index, %seed: index) -> tensor<?x?xf32> {
  %e = tensor.empty(%rows, %cols) : tensor<?x?xf32>
  %t = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<?x?xf32>) {
  ^bb0(%out: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %c3 = arith.constant 3 : index
    %c11 = arith.constant 11 : index
    %c5 = arith.constant 5 : index
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c3 : index
    %s = arith.addi %a, %b : index
    %s1 = arith.addi %s, %seed : index
    %r = arith.remui %s1, %c11 : index
    %v = arith.subi %r, %c5 : index
    %vi = arith.index_cast %v : index to i64
    %vf = arith.sitofp %vi : i64 to f32
    linalg.yield %vf : f32
  } -> tensor<?x?xf32>
  return %t : tensor<?x?xf32>
}

func.func @main() {
  %a = arith.constant dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>
  %b = arith.constant dense<[[1.0, 0.0, 1.0], [0.0, 2.0, 0.0], [1.0, 1.0, -1.0], [0.5, 0.5, 0.5]]> : tensor<4x3xf32>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<2x4xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<2x4xf32>) -> tensor<2x4xf32>
  %0 = linalg.contract indexing_maps = [#a, #bt, #c] ins(%a, %b : tensor<2x3xf32>, tensor<4x3xf32>) outs(%z : tensor<2x4xf32>) -> tensor<2x4xf32>
  %u0 = tensor.cast %0 : tensor<2x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()

  // x[b, n] += v[b, k] * M[b, k, n]: a vecmat with a batch dimension
  %v = arith.constant dense<[[1.0, 2.0], [3.0, -1.0]]> : tensor<2x2xf32>
  %m = arith.constant dense<[[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], [[1.0, 0.0, 2.0], [0.0, 1.0, 1.0]]]> : tensor<2x2x3xf32>
  %ones = arith.constant dense<1.0> : tensor<2x3xf32>
  %1 = linalg.contract indexing_maps = [affine_map<(b, n, k) -> (b, k)>, affine_map<(b, n, k) -> (b, k, n)>, affine_map<(b, n, k) -> (b, n)>]
         ins(%v, %m : tensor<2x2xf32>, tensor<2x2x3xf32>) outs(%ones : tensor<2x3xf32>) -> tensor<2x3xf32>
  %u1 = tensor.cast %1 : tensor<2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()

  // odd sizes: contract(A, Bt) against matmul(A, transpose(Bt))
  %c33 = arith.constant 33 : index
  %c40 = arith.constant 40 : index
  %c37 = arith.constant 37 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %ad = call @pattern(%c33, %c37, %c1) : (index, index, index) -> tensor<?x?xf32>
  %btd = call @pattern(%c40, %c37, %c2) : (index, index, index) -> tensor<?x?xf32>
  %as = tensor.cast %ad : tensor<?x?xf32> to tensor<33x37xf32>
  %bts = tensor.cast %btd : tensor<?x?xf32> to tensor<40x37xf32>
  %ec = tensor.empty() : tensor<33x40xf32>
  %zc = linalg.fill ins(%zero : f32) outs(%ec : tensor<33x40xf32>) -> tensor<33x40xf32>
  %got = linalg.contract indexing_maps = [#a, #bt, #c] ins(%as, %bts : tensor<33x37xf32>, tensor<40x37xf32>) outs(%zc : tensor<33x40xf32>) -> tensor<33x40xf32>
  %eb = tensor.empty() : tensor<37x40xf32>
  %bs = linalg.transpose ins(%bts : tensor<40x37xf32>) outs(%eb : tensor<37x40xf32>) permutation = [1, 0]
  %want = linalg.matmul ins(%as, %bs : tensor<33x37xf32>, tensor<37x40xf32>) outs(%zc : tensor<33x40xf32>) -> tensor<33x40xf32>
  %es = tensor.empty() : tensor<f32>
  %zs = linalg.fill ins(%zero : f32) outs(%es : tensor<f32>) -> tensor<f32>
  %diff = linalg.generic {indexing_maps = [#id, #id, affine_map<(i, j) -> ()>], iterator_types = ["reduction", "reduction"]}
      ins(%got, %want : tensor<33x40xf32>, tensor<33x40xf32>) outs(%zs : tensor<f32>) {
  ^bb0(%g: f32, %w: f32, %acc: f32):
    %d = arith.subf %g, %w : f32
    %ad2 = math.absf %d : f32
    %mx = arith.maximumf %acc, %ad2 : f32
    linalg.yield %mx : f32
  } -> tensor<f32>
  %u2 = tensor.cast %diff : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
