// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// llvm.return must return what its llvm.func returns (upstream's
// ReturnOp::verify), and the integer/float casts take the operand and result
// kinds upstream's ODS gives them. Any width of integer is fine (i128 too).

llvm.func @wrong_type() -> i32 {
  %0 = llvm.mlir.constant(1 : i64) : i64
  // expected-error @+1 {{'llvm.return' op mismatching result types}}
  llvm.return %0 : i64
}

// -----

llvm.func @value_from_void() {
  %0 = llvm.mlir.constant(1 : i64) : i64
  // expected-error @+1 {{'llvm.return' op expected no operands}}
  llvm.return %0 : i64
}

// -----

llvm.func @nothing_from_i32() -> i32 {
  // expected-error @+1 {{'llvm.return' op expected 1 operand}}
  llvm.return
}

// -----

llvm.func @uitofp_from_float(%a: f32) -> i32 {
  // expected-error @+1 {{'llvm.uitofp' op operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'}}
  %0 = llvm.uitofp %a : f32 to i32
  llvm.return %0 : i32
}

// -----

llvm.func @sitofp_to_int(%a: i128) -> i32 {
  // expected-error @+1 {{'llvm.sitofp' op result #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'}}
  %0 = llvm.sitofp %a : i128 to i32
  llvm.return %0 : i32
}

// -----

llvm.func @fptosi_from_int(%a: i128) -> i32 {
  // expected-error @+1 {{'llvm.fptosi' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i128'}}
  %0 = llvm.fptosi %a : i128 to i32
  llvm.return %0 : i32
}

// -----

llvm.func @fptoui_to_float(%a: f32) -> f64 {
  // expected-error @+1 {{'llvm.fptoui' op result #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f64'}}
  %0 = llvm.fptoui %a : f32 to f64
  llvm.return %0 : f64
}

// -----

llvm.func @fpext_from_int(%a: i32) -> f64 {
  // expected-error @+1 {{'llvm.fpext' op operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'}}
  %0 = llvm.fpext %a : i32 to f64
  llvm.return %0 : f64
}

// -----

llvm.func @zext_from_float(%a: f32) -> i64 {
  // expected-error @+1 {{'llvm.zext' op operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'}}
  %0 = llvm.zext %a : f32 to i64
  llvm.return %0 : i64
}

// -----

// Upstream accepts casts to and from i128, scalar or vector.
llvm.func @i128(%a: i128, %b: f32, %v: vector<4xi128>) -> f32 {
  %0 = llvm.uitofp %a : i128 to f32
  %1 = llvm.fptosi %b : f32 to i128
  %2 = llvm.sitofp %v : vector<4xi128> to vector<4xf64>
  %3 = llvm.fptoui %b : f32 to i128
  %4 = llvm.sitofp %1 : i128 to f64
  llvm.return %0 : f32
}
