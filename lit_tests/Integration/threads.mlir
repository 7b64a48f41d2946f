// Ops big enough for threads: an elementwise chain cut into chunks, a row
// reduction with its rows on threads, and a matmul whose row blocks run on
// threads. Each result is the same with one thread, two, and none at all.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' -o %t.mlir
// RUN: env MLKIT_NUM_THREADS=2 mlkit-run %t.mlir -e main -entry-point-result=void | filecheck %s
// RUN: env MLKIT_NUM_THREADS=1 mlkit-run %t.mlir -e main -entry-point-result=void | filecheck %s
// RUN: env MLKIT_NUM_THREADS=3 mlkit-run %t.mlir -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{threads=false})' | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{num-threads=2})' | mlkit-run -e main -entry-point-result=void | filecheck %s
// RUN: mlkit-run %t.mlir -e main -entry-point-result=void -num-threads=2 | filecheck %s
// RUN: not mlkit-run %t.mlir -num-threads=0 2>&1 | filecheck %s --check-prefix=BAD
// RUN: filecheck %s --check-prefix=IR < %t.mlir
// RUN: mlkit-translate --mlir-to-llvmir %t.mlir | filecheck %s --check-prefix=LLVM

// BAD: mlkit-run: error: invalid -num-threads '0' (expected a positive integer)

// IR-LABEL: llvm.func @chain
// IR: omp.parallel {
// IR-LABEL: llvm.func @rows
// IR: omp.parallel {
// IR-LABEL: llvm.func @product
// IR: omp.parallel {
// LLVM: call void @_mlkit_parallel_for(ptr @chain..omp_par.0, ptr %{{.*}}, i64 %{{.*}}, i64 0)
// LLVM: define internal void @chain..omp_par.0(ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}})

// CHECK: 280011
// CHECK: [0, 1497, 1503, 1502, 1501, 1500, 1506]
// CHECK: [0, 600, 400, 600, 0, 600, 400, 600]
// CHECK: [600, 0, 600, 400]

#id = affine_map<(d0) -> (d0)>
#id2 = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>

func.func private @printMemrefF32(tensor<*xf32>)

// x = i mod 7, then x * 2 + 1: one fused loop of 40003 elements
func.func @chain() -> tensor<f32> {
  %e = tensor.empty() : tensor<40003xf32>
  %x = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]} outs(%e : tensor<40003xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %c7 = arith.constant 7 : index
    %r = arith.remui %i, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    linalg.yield %f : f32
  } -> tensor<40003xf32>
  %two = arith.constant 2.0 : f32
  %one = arith.constant 1.0 : f32
  %y = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]} ins(%x : tensor<40003xf32>) outs(%e : tensor<40003xf32>) {
  ^bb0(%a: f32, %o: f32):
    %m = arith.mulf %a, %two : f32
    %s = arith.addf %m, %one : f32
    linalg.yield %s : f32
  } -> tensor<40003xf32>
  %zero = arith.constant 0.0 : f32
  %e0 = tensor.empty() : tensor<f32>
  %z = linalg.fill ins(%zero : f32) outs(%e0 : tensor<f32>) -> tensor<f32>
  %sum = linalg.reduce ins(%y : tensor<40003xf32>) outs(%z : tensor<f32>) dimensions = [0]
    (%a: f32, %b: f32) {
      %s = arith.addf %a, %b : f32
      linalg.yield %s : f32
    }
  return %sum : tensor<f32>
}

// m[i][j] = (i * j + i) mod 7 over 301 x 500, summed along rows
func.func @rows() -> tensor<301xf32> {
  %e = tensor.empty() : tensor<301x500xf32>
  %m = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%e : tensor<301x500xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c7 = arith.constant 7 : index
    %ij0 = arith.muli %i, %j : index
    %ij = arith.addi %ij0, %i : index
    %r = arith.remui %ij, %c7 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    linalg.yield %f : f32
  } -> tensor<301x500xf32>
  %zero = arith.constant 0.0 : f32
  %e1 = tensor.empty() : tensor<301xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e1 : tensor<301xf32>) -> tensor<301xf32>
  %s = linalg.generic {indexing_maps = [#id2, #row], iterator_types = ["parallel", "reduction"]} ins(%m : tensor<301x500xf32>) outs(%z : tensor<301xf32>) {
  ^bb0(%a: f32, %acc: f32):
    %t = arith.addf %a, %acc : f32
    linalg.yield %t : f32
  } -> tensor<301xf32>
  return %s : tensor<301xf32>
}

// A[i][k] = (i * k + i) mod 5 (301 x 200), B[k][j] = (k * j + 3j) mod 4 (200 x 100)
func.func @lhs() -> tensor<301x200xf32> {
  %ea = tensor.empty() : tensor<301x200xf32>
  %a = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%ea : tensor<301x200xf32>) {
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = linalg.index 1 : index
    %c5 = arith.constant 5 : index
    %ik0 = arith.muli %i, %k : index
    %ik = arith.addi %ik0, %i : index
    %r = arith.remui %ik, %c5 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    linalg.yield %f : f32
  } -> tensor<301x200xf32>
  return %a : tensor<301x200xf32>
}

func.func @rhs() -> tensor<200x100xf32> {
  %eb = tensor.empty() : tensor<200x100xf32>
  %b = linalg.generic {indexing_maps = [#id2], iterator_types = ["parallel", "parallel"]} outs(%eb : tensor<200x100xf32>) {
  ^bb0(%o: f32):
    %k = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c4 = arith.constant 4 : index
    %c3 = arith.constant 3 : index
    %j3 = arith.muli %j, %c3 : index
    %kj0 = arith.muli %k, %j : index
    %kj = arith.addi %kj0, %j3 : index
    %r = arith.remui %kj, %c4 : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    linalg.yield %f : f32
  } -> tensor<200x100xf32>
  return %b : tensor<200x100xf32>
}

// the two in separate functions, so that they do not fuse into the matmul
func.func @product(%a: tensor<301x200xf32>, %b: tensor<200x100xf32>) -> tensor<301x100xf32> {
  %zero = arith.constant 0.0 : f32
  %ec = tensor.empty() : tensor<301x100xf32>
  %z = linalg.fill ins(%zero : f32) outs(%ec : tensor<301x100xf32>) -> tensor<301x100xf32>
  %c = linalg.matmul ins(%a, %b : tensor<301x200xf32>, tensor<200x100xf32>) outs(%z : tensor<301x100xf32>) -> tensor<301x100xf32>
  return %c : tensor<301x100xf32>
}

func.func @main() {
  %sum = call @chain() : () -> tensor<f32>
  %u0 = tensor.cast %sum : tensor<f32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %rows = call @rows() : () -> tensor<301xf32>
  %r7 = tensor.extract_slice %rows[294] [7] [1] : tensor<301xf32> to tensor<7xf32>
  %u1 = tensor.cast %r7 : tensor<7xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %a = call @lhs() : () -> tensor<301x200xf32>
  %b = call @rhs() : () -> tensor<200x100xf32>
  %c = call @product(%a, %b) : (tensor<301x200xf32>, tensor<200x100xf32>) -> tensor<301x100xf32>
  %c8 = tensor.extract_slice %c[299, 0] [1, 8] [1, 1] : tensor<301x100xf32> to tensor<8xf32>
  %u2 = tensor.cast %c8 : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %cc = tensor.extract_slice %c[122, 95] [1, 4] [1, 1] : tensor<301x100xf32> to tensor<4xf32>
  %u3 = tensor.cast %cc : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
