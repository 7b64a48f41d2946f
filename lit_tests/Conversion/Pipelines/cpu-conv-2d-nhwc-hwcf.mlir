// linalg.conv_2d_nhwc_hwcf with unit and with 2x2 strides, and 2x1 dilations.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-3: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#id4 = affine_map<(a, b, c, d) -> (a, b, c, d)>
func.func private @printMemrefF32(tensor<*xf32>)

// t[a, b, c, d] = (a + 2b + 3c + 5d) mod 7 - 3
func.func @pattern(%t: tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32> {
  %r = linalg.generic {indexing_maps = [#id4], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} outs(%t : tensor<?x?x?x?xf32>) {
  ^bb0(%o: f32):
    %a = linalg.index 0 : index
    %b = linalg.index 1 : index
    %c = linalg.index 2 : index
    %d = linalg.index 3 : index
    %c2 = arith.constant 2 : index
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %b2 = arith.muli %b, %c2 : index
    %c3x = arith.muli %c, %c3 : index
    %d5 = arith.muli %d, %c5 : index
    %s0 = arith.addi %a, %b2 : index
    %s1 = arith.addi %s0, %c3x : index
    %s2 = arith.addi %s1, %d5 : index
    %m = arith.remui %s2, %c7 : index
    %mi = arith.index_cast %m : index to i32
    %f = arith.sitofp %mi : i32 to f32
    %three = arith.constant 3.0 : f32
    %v = arith.subf %f, %three : f32
    linalg.yield %v : f32
  } -> tensor<?x?x?x?xf32>
  return %r : tensor<?x?x?x?xf32>
}

func.func @main() {
  %zero = arith.constant 0.0 : f32
  %ei = tensor.empty() : tensor<1x6x5x2xf32>
  %ef = tensor.empty() : tensor<3x3x2x3xf32>
  %di = tensor.cast %ei : tensor<1x6x5x2xf32> to tensor<?x?x?x?xf32>
  %df = tensor.cast %ef : tensor<3x3x2x3xf32> to tensor<?x?x?x?xf32>
  %pi = call @pattern(%di) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %pf = call @pattern(%df) : (tensor<?x?x?x?xf32>) -> tensor<?x?x?x?xf32>
  %in = tensor.cast %pi : tensor<?x?x?x?xf32> to tensor<1x6x5x2xf32>
  %filter = tensor.cast %pf : tensor<?x?x?x?xf32> to tensor<3x3x2x3xf32>

  %e1 = tensor.empty() : tensor<1x4x3x3xf32>
  %o1 = linalg.fill ins(%zero : f32) outs(%e1 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %r1 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x6x5x2xf32>, tensor<3x3x2x3xf32>) outs(%o1 : tensor<1x4x3x3xf32>) -> tensor<1x4x3x3xf32>
  %u1 = tensor.cast %r1 : tensor<1x4x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u1) : (tensor<*xf32>) -> ()

  %e2 = tensor.empty() : tensor<1x2x2x3xf32>
  %o2 = linalg.fill ins(%zero : f32) outs(%e2 : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %r2 = linalg.conv_2d_nhwc_hwcf {dilations = dense<1> : tensor<2xi64>, strides = dense<2> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x6x5x2xf32>, tensor<3x3x2x3xf32>) outs(%o2 : tensor<1x2x2x3xf32>) -> tensor<1x2x2x3xf32>
  %u2 = tensor.cast %r2 : tensor<1x2x2x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u2) : (tensor<*xf32>) -> ()

  %e3 = tensor.empty() : tensor<1x2x3x3xf32>
  %o3 = linalg.fill ins(%zero : f32) outs(%e3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %r3 = linalg.conv_2d_nhwc_hwcf {dilations = dense<[2, 1]> : tensor<2xi64>, strides = dense<1> : tensor<2xi64>}
    ins(%in, %filter : tensor<1x6x5x2xf32>, tensor<3x3x2x3xf32>) outs(%o3 : tensor<1x2x3x3xf32>) -> tensor<1x2x3x3xf32>
  %u3 = tensor.cast %r3 : tensor<1x2x3x3xf32> to tensor<*xf32>
  call @printMemrefF32(%u3) : (tensor<*xf32>) -> ()
  return
}
