// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// One chunk per NVVM verifier or #nvvm.target error; upstream MLIR rejects each too.

llvm.func @f() {
  // expected-error @+1 {{result #0 must be 32-bit signless integer, but got 'i64'}}
  %0 = nvvm.read.ptx.sreg.ctaid.x : i64
  llvm.return
}

// -----

llvm.func @f(%m: i32, %v: f32, %o: i32, %c: i32) {
  // expected-error @+1 {{expected return type to be a two-element struct}}
  %0 = nvvm.shfl.sync bfly %m, %v, %o, %c {return_value_and_is_valid} : f32 -> f32
  llvm.return
}

// -----

llvm.func @f(%m: i32, %v: f32, %o: i32, %c: i32) {
  // expected-error @+1 {{expected first element in the returned struct to be of type 'f32' but got 'i32' instead}}
  %0 = nvvm.shfl.sync bfly %m, %v, %o, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(i32, i1)>
  llvm.return
}

// -----

llvm.func @f(%m: i32, %v: f32, %o: i32, %c: i32) {
  // expected-error @+1 {{expected return type to be of type 'f32' but got 'i32' instead}}
  %0 = nvvm.shfl.sync bfly %m, %v, %o, %c : f32 -> i32
  llvm.return
}

// -----

// expected-error @+1 {{The optimization level must be a number between 0 and 3.}}
llvm.func @f() attributes {t = #nvvm.target<O = 4>}

// -----

// expected-error @+1 {{The target chip cannot be empty.}}
llvm.func @f() attributes {t = #nvvm.target<chip = "">}

// -----

// expected-error @+1 {{All the elements in the `link` array must be strings.}}
llvm.func @f() attributes {t = #nvvm.target<link = [1]>}

// -----

llvm.func @f(%m: i32, %v: f32, %o: i32, %c: i32) {
  // expected-error @+1 {{expected second element in the returned struct to be of type 'i1' but got 'i32' instead}}
  %0 = nvvm.shfl.sync bfly %m, %v, %o, %c {return_value_and_is_valid} : f32 -> !llvm.struct<(f32, i32)>
  llvm.return
}

// -----

llvm.func @f(%x: f64) {
  // expected-error @+1 {{'nvvm.rcp.approx.ftz.f' op operand #0 must be 32-bit float, but got 'f64'}}
  %0 = "nvvm.rcp.approx.ftz.f"(%x) : (f64) -> f32
  llvm.return
}
