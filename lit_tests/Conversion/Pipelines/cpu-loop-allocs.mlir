// A loop whose body yields a freshly allocated tensor each iteration: only
// valid with allow-return-allocs-from-loops, which lower-to-cpu sets; the
// buffer of each iteration is freed.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK: call ptr @malloc
// CHECK: call void @free
// CHECK: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id = affine_map<(i) -> (i)>
func.func private @printMemrefF32(tensor<*xf32>)

// n steps of t <- t * 0.5 + 1, each into a new tensor
func.func @main() {
  %t = arith.constant dense<[0.0, 2.0, -4.0, 10.0]> : tensor<4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %n = arith.constant 5 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    %e = tensor.empty() : tensor<4xf32>
    %next = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
        ins(%acc : tensor<4xf32>) outs(%e : tensor<4xf32>) {
    ^bb0(%x: f32, %o: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %m = arith.mulf %x, %half : f32
      %a = arith.addf %m, %one : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  %u = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
