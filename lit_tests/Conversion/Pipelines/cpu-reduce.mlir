// linalg.reduce along each dimension: a row sum and a column maximum.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK: fadd {{.*}}float
// CHECK-COUNT-2: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[[1.0, -2.0, 3.0, 4.5], [0.5, 6.0, -7.0, 2.0], [9.0, -1.0, 0.25, -3.0]]> : tensor<3x4xf32>
  %zero = arith.constant 0.0 : f32
  %ninf = arith.constant 0xFF800000 : f32
  %e1 = tensor.empty() : tensor<3xf32>
  %i1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<3xf32>) -> tensor<3xf32>
  %rows = linalg.reduce ins(%a : tensor<3x4xf32>) outs(%i1 : tensor<3xf32>) dimensions = [1]
    (%in: f32, %acc: f32) {
      %s = arith.addf %in, %acc : f32
      linalg.yield %s : f32
    }
  %e2 = tensor.empty() : tensor<4xf32>
  %i2 = linalg.fill ins(%ninf : f32) outs(%e2 : tensor<4xf32>) -> tensor<4xf32>
  %cols = linalg.reduce ins(%a : tensor<3x4xf32>) outs(%i2 : tensor<4xf32>) dimensions = [0]
    (%in: f32, %acc: f32) {
      %m = arith.maximumf %in, %acc : f32
      linalg.yield %m : f32
    }
  %u1 = tensor.cast %rows : tensor<3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()
  %u2 = tensor.cast %cols : tensor<4xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()
  return
}
