// With polynomial-math=false: float arith and math ops with LLVM intrinsics (exp, tanh, sqrt, log, powf,
// floor, absf) in one multi-result generic.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{polynomial-math=false})' --emit=llvm | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s --check-prefix=POLY
// By default f32 exp and tanh become polynomials; sqrt and pow stay intrinsics.
// POLY-LABEL: define void @main()
// POLY-NOT: call {{.*}}@llvm.exp.{{(v[0-9]+)?}}f32(
// POLY-NOT: call {{.*}}@llvm.tanh.{{(v[0-9]+)?}}f32(
// POLY: call {{.*}}@llvm.sqrt.{{(v[0-9]+)?}}f32(
// CHECK-LABEL: define void @main()
// CHECK: call {{.*}}@llvm.exp.{{(v[0-9]+)?}}f32(
// CHECK: call {{.*}}@llvm.tanh.{{(v[0-9]+)?}}f32(
// CHECK: call {{.*}}@llvm.sqrt.{{(v[0-9]+)?}}f32(
// CHECK: call {{.*}}@llvm.pow.{{(v[0-9]+)?}}f32(
// CHECK-COUNT-3: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id = affine_map<(i) -> (i)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[-2.5, -1.0, -0.25, 0.0, 0.5, 1.0, 2.0, 3.75]> : tensor<8xf32>
  %e = tensor.empty() : tensor<8xf32>
  %r:3 = linalg.generic {indexing_maps = [#id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xf32>) outs(%e, %e, %e : tensor<8xf32>, tensor<8xf32>, tensor<8xf32>) {
  ^bb0(%x: f32, %o0: f32, %o1: f32, %o2: f32):
    %one = arith.constant 1.0 : f32
    %half = arith.constant 0.5 : f32
    %three = arith.constant 3.0 : f32
    %ex = math.exp %x : f32
    %th = math.tanh %x : f32
    %s0 = arith.addf %ex, %th : f32
    %ax = math.absf %x : f32
    %sq = math.sqrt %ax : f32
    %ax1 = arith.addf %ax, %one : f32
    %lg = math.log %ax1 : f32
    %s1 = arith.subf %sq, %lg : f32
    %p = math.powf %ax1, %half : f32
    %fl = math.floor %x : f32
    %d = arith.divf %fl, %three : f32
    %n = arith.negf %d : f32
    %gt = arith.cmpf ogt, %x, %half : f32
    %mx = arith.maximumf %n, %p : f32
    %s2 = arith.select %gt, %mx, %n : f32
    linalg.yield %s0, %s1, %s2 : f32, f32, f32
  } -> (tensor<8xf32>, tensor<8xf32>, tensor<8xf32>)
  %u0 = tensor.cast %r#0 : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u0) : (tensor<*xf32>) -> ()
  %u1 = tensor.cast %r#1 : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %r#2 : tensor<8xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
