// Math ops LLVM has no intrinsic for (erf, cbrt, atanh) become libm calls
// under lower-to-cpu{polynomial-math=false}; f64 ones call the unsuffixed functions.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{polynomial-math=false})' --emit=llvm | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s --check-prefix=POLY
// By default f32 math becomes polynomials (no libm call); f64 keeps libm.
// POLY-NOT: declare float @erff(float)
// POLY-NOT: declare float @cbrtf(float)
// POLY: declare double @atanh(double)
// CHECK-DAG: declare float @erff(float)
// CHECK-DAG: declare float @cbrtf(float)
// CHECK-DAG: declare double @atanh(double)
// CHECK-LABEL: define void @main()

#id = affine_map<(i) -> (i)>
func.func private @printMemrefF32(tensor<*xf32>)

func.func @main() {
  %a = arith.constant dense<[-0.75, -0.5, 0.0, 0.125, 0.5, 0.9]> : tensor<6xf32>
  %e = tensor.empty() : tensor<6xf32>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<6xf32>) outs(%e : tensor<6xf32>) {
  ^bb0(%x: f32, %o: f32):
    %er = math.erf %x : f32
    %cb = math.cbrt %x : f32
    %xd = arith.extf %x : f32 to f64
    %at = math.atanh %xd : f64
    %atf = arith.truncf %at : f64 to f32
    %s = arith.addf %er, %cb : f32
    %t = arith.addf %s, %atf : f32
    linalg.yield %t : f32
  } -> tensor<6xf32>
  %u = tensor.cast %r : tensor<6xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
