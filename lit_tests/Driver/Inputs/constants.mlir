func.func @f() -> (tensor<4xf32>, tensor<2xi32>, tensor<8xf32>) {
 %a = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : tensor<4xf32>
 %b = arith.constant dense<[1, 2]> : tensor<2xi32>
 %c = arith.constant dense<1.0> : tensor<8xf32>
 return %a, %b, %c : tensor<4xf32>, tensor<2xi32>, tensor<8xf32>
}
