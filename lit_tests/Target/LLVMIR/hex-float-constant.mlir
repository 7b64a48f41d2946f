// A hex float literal is a bit pattern, also after printing and re-parsing.
// RUN: mlkit-opt %s | mlkit-translate --mlir-to-llvmir | filecheck %s

// CHECK-LABEL: define float @neg_inf()
// CHECK-NEXT: ret float 0xFFF0000000000000
llvm.func @neg_inf() -> f32 {
  %0 = llvm.mlir.constant(0xff800000 : f32) : f32
  llvm.return %0 : f32
}

// CHECK-LABEL: define double @one()
// CHECK-NEXT: ret double 1.000000e+00
llvm.func @one() -> f64 {
  %0 = llvm.mlir.constant(0x3FF0000000000000 : f64) : f64
  llvm.return %0 : f64
}
