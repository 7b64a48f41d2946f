// The scalar printers: printF32, printF64, printI64, printU64, printOpen/Close/Comma/Newline.

// RUN: mlkit-opt %s -p 'builtin.module(one-shot-bufferize{bufferize-function-boundaries}, convert-linalg-to-loops, lower-affine, convert-scf-to-cf, expand-strided-metadata, lower-affine, convert-to-llvm, reconcile-unrealized-casts)' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK{LITERAL}:( 1.5, -0.000125, -42, 18446744073709551574, 1e+20 )

func.func private @printF32(f32)
func.func private @printF64(f64)
func.func private @printI64(i64)
func.func private @printU64(i64)
func.func private @printOpen()
func.func private @printClose()
func.func private @printComma()
func.func private @printNewline()

func.func @main() {
  %a = arith.constant 1.5 : f32
  %b = arith.constant -0.000125 : f64
  %c = arith.constant -42 : i64
  %d = arith.constant 1.0e20 : f32
  call @printOpen() : () -> ()
  call @printF32(%a) : (f32) -> ()
  call @printComma() : () -> ()
  call @printF64(%b) : (f64) -> ()
  call @printComma() : () -> ()
  call @printI64(%c) : (i64) -> ()
  call @printComma() : () -> ()
  call @printU64(%c) : (i64) -> ()
  call @printComma() : () -> ()
  call @printF32(%d) : (f32) -> ()
  call @printClose() : () -> ()
  call @printNewline() : () -> ()
  return
}
