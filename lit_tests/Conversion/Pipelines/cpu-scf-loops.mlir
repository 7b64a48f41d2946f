// scf.for carrying a tensor through linalg ops, scf.while carrying scalars and
// a tensor, and scf.if with tensor results.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-4: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id = affine_map<(i) -> (i)>
func.func private @printMemrefF32(tensor<*xf32>)

// n steps of t <- t * 0.5 + 1
func.func @iterate(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %t) -> (tensor<4xf32>) {
    %next = linalg.generic {indexing_maps = [#id], iterator_types = ["parallel"]}
        outs(%acc : tensor<4xf32>) {
    ^bb0(%x: f32):
      %half = arith.constant 0.5 : f32
      %one = arith.constant 1.0 : f32
      %m = arith.mulf %x, %half : f32
      %a = arith.addf %m, %one : f32
      linalg.yield %a : f32
    } -> tensor<4xf32>
    scf.yield %next : tensor<4xf32>
  }
  return %r : tensor<4xf32>
}

// Doubles t[0..n) in an scf.while that carries the tensor.
func.func @double_prefix(%t: tensor<4xf32>, %n: index) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.while (%acc = %t, %i = %c0) : (tensor<4xf32>, index) -> (tensor<4xf32>, index) {
    %more = arith.cmpi slt, %i, %n : index
    scf.condition(%more) %acc, %i : tensor<4xf32>, index
  } do {
  ^bb0(%acc: tensor<4xf32>, %i: index):
    %v = tensor.extract %acc[%i] : tensor<4xf32>
    %w = arith.addf %v, %v : f32
    %u = tensor.insert %w into %acc[%i] : tensor<4xf32>
    %j = arith.addi %i, %c1 : index
    scf.yield %u, %j : tensor<4xf32>, index
  }
  return %r#0 : tensor<4xf32>
}

// Collatz steps of 27, 7 and 1, and whether 10 is even, into a tensor.
func.func @counts() -> tensor<4xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<4xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<4xf32>) -> tensor<4xf32>
  %starts = arith.constant dense<[27, 7, 1]> : tensor<3xi32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %filled = scf.for %k = %c0 to %c3 step %c1 iter_args(%t = %init) -> (tensor<4xf32>) {
    %start = tensor.extract %starts[%k] : tensor<3xi32>
    %zero_i = arith.constant 0 : i32
    %res:2 = scf.while (%x = %start, %steps = %zero_i) : (i32, i32) -> (i32, i32) {
      %one = arith.constant 1 : i32
      %more = arith.cmpi ne, %x, %one : i32
      scf.condition(%more) %x, %steps : i32, i32
    } do {
    ^bb0(%x: i32, %steps: i32):
      %one = arith.constant 1 : i32
      %two = arith.constant 2 : i32
      %three = arith.constant 3 : i32
      %bit = arith.andi %x, %one : i32
      %odd = arith.cmpi eq, %bit, %one : i32
      %up = arith.muli %x, %three : i32
      %up1 = arith.addi %up, %one : i32
      %down = arith.divui %x, %two : i32
      %nx = arith.select %odd, %up1, %down : i32
      %ns = arith.addi %steps, %one : i32
      scf.yield %nx, %ns : i32, i32
    }
    %f = arith.sitofp %res#1 : i32 to f32
    %u = tensor.insert %f into %t[%k] : tensor<4xf32>
    scf.yield %u : tensor<4xf32>
  }
  %ten = arith.constant 10 : i32
  %two = arith.constant 2 : i32
  %rem = arith.remsi %ten, %two : i32
  %zero_i = arith.constant 0 : i32
  %even = arith.cmpi eq, %rem, %zero_i : i32
  %out = scf.if %even -> (tensor<4xf32>) {
    %one = arith.constant 1.0 : f32
    %w = tensor.insert %one into %filled[%c3] : tensor<4xf32>
    scf.yield %w : tensor<4xf32>
  } else {
    scf.yield %filled : tensor<4xf32>
  }
  return %out : tensor<4xf32>
}

func.func @main() {
  %t = arith.constant dense<[0.0, 2.0, -4.0, 10.0]> : tensor<4xf32>
  %c5 = arith.constant 5 : index
  %r = call @iterate(%t, %c5) : (tensor<4xf32>, index) -> tensor<4xf32>
  %u1 = tensor.cast %r : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %c = call @counts() : () -> tensor<4xf32>
  %u2 = tensor.cast %c : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  %c3 = arith.constant 3 : index
  %d = call @double_prefix(%t, %c3) : (tensor<4xf32>, index) -> tensor<4xf32>
  %u3 = tensor.cast %d : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  %u4 = tensor.cast %t : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u4) : (tensor<*xf32>) -> ()
  return
}
