// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// One chunk per LLVM dialect verifier error; upstream MLIR rejects each too.

llvm.func @f(%a: f32) {
  // expected-error @+1 {{operand #0 must be signless integer or LLVM dialect-compatible vector of signless integer, but got 'f32'}}
  %0 = llvm.add %a, %a : f32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{operand #0 must be floating point LLVM type or LLVM dialect-compatible vector of floating point LLVM type, but got 'i32'}}
  %0 = llvm.fadd %a, %a : i32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr) {
  // expected-error @+1 {{can be given only acquire, release, acq_rel, and seq_cst orderings}}
  llvm.fence monotonic
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr) {
  // expected-error @+1 {{expected alignment for atomic access}}
  %0 = llvm.load %p atomic acquire : !llvm.ptr -> i32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  // expected-error @+1 {{unsupported ordering 'acquire'}}
  llvm.store %v, %p atomic acquire {alignment = 4 : i64} : i32, !llvm.ptr
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  // expected-error @+1 {{expected at least 'monotonic' ordering}}
  %0 = llvm.atomicrmw add %p, %v unordered : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %v: i32) {
  // expected-error @+1 {{failure ordering cannot be 'release' or 'acq_rel'}}
  %0 = llvm.cmpxchg %p, %v, %v acq_rel release : !llvm.ptr, i32
  llvm.return
}

// -----

llvm.func @f(%s: !llvm.struct<(i32)>) {
  // expected-error @+1 {{Type mismatch: extracting from '!llvm.struct<(i32)>' should produce 'i32' but this op returns 'f32'}}
  %0 = "llvm.extractvalue"(%s) <{position = array<i64: 0>}> : (!llvm.struct<(i32)>) -> f32
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr, %i: i32) {
  // expected-error @+1 {{expected index 1 indexing a struct to be constant}}
  %0 = llvm.getelementptr %p[0, %i] : (!llvm.ptr, i32) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

llvm.func @f(%p: !llvm.ptr) {
  // expected-error @+1 {{index 1 indexing a struct is out of bounds}}
  %0 = llvm.getelementptr %p[0, 5] : (!llvm.ptr) -> !llvm.ptr, !llvm.struct<(i32, f32)>
  llvm.return
}

// -----

// expected-error @+1 {{external functions must have 'external' or 'extern_weak' linkage}}
llvm.func internal @decl()

// -----

// expected-error @+1 {{type of entry block argument #0('i64') must match the type of the corresponding argument in function signature('i32')}}
"llvm.func"() <{function_type = !llvm.func<void (i32)>, sym_name = "f"}> ({
^bb0(%a: i64):
  llvm.return
}) : () -> ()

// -----

// expected-error @+1 {{cannot have both initializer value and region}}
llvm.mlir.global internal @g(1 : i32) : i32 {
  %0 = llvm.mlir.constant(1 : i32) : i32
  llvm.return %0 : i32
}

// -----

// expected-error @+1 {{initializer region type 'i64' does not match global type 'i32'}}
llvm.mlir.global internal @g() : i32 {
  %0 = llvm.mlir.constant(1 : i64) : i64
  llvm.return %0 : i64
}

// -----

llvm.func @f(%p: !llvm.ptr) {
  // expected-error @+1 {{'nope' does not reference a symbol in the current scope}}
  %0 = llvm.call @nope() : () -> i32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{result #0 must be 1-bit signless integer or LLVM dialect-compatible vector of 1-bit signless integer, but got 'i32'}}
  %0 = "llvm.icmp"(%a, %a) <{predicate = 0 : i64}> : (i32, i32) -> i32
  llvm.return
}

// -----

llvm.func @f() {
  // expected-error @+1 {{must reference a global defined by 'llvm.mlir.global', 'llvm.mlir.alias' or 'llvm.func' or 'llvm.mlir.ifunc'}}
  %0 = llvm.mlir.addressof @missing : !llvm.ptr
  llvm.return
}
