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

// -----

// expected-error @+1 {{alignment attribute is not a power of 2}}
llvm.mlir.global private @misaligned(42 : i64) {alignment = 48} : i64

// -----

llvm.func @f(%callee: !llvm.ptr, %arg: i8) {
  // expected-error @+1 {{expected a non-void result type}}
  llvm.call %callee(%arg) : !llvm.ptr, (i8) -> (!llvm.void)
  llvm.return
}

// -----

func.func private @func_callee()
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op 'func_callee' does not reference a valid LLVM function}}
  llvm.call @func_callee() : () -> ()
  llvm.return
}

// -----

llvm.func @callee(i8)
llvm.func @f(%a: i32) {
  // expected-error @+1 {{'llvm.call' op operand type mismatch for operand 0: 'i32' != 'i8'}}
  llvm.call @callee(%a) : (i32) -> ()
  llvm.return
}

// -----

llvm.func @callee(i8)
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op incorrect number of operands (0) for callee (expecting: 1)}}
  llvm.call @callee() : () -> ()
  llvm.return
}

// -----

llvm.func @callee() -> i8
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op result type mismatch: 'i32' != 'i8'}}
  %0 = llvm.call @callee() : () -> i32
  llvm.return
}

// -----

llvm.func @callee() -> i8
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op expected function call to produce a value}}
  llvm.call @callee() : () -> ()
  llvm.return
}

// -----

llvm.func @callee()
llvm.func @f() {
  // expected-error @+1 {{'llvm.call' op calling function with void result must not produce values}}
  %0 = llvm.call @callee() : () -> i32
  llvm.return
}

// -----

llvm.func @callee(i8, ...)
llvm.func @f(%a: i8) {
  // expected-error @+1 {{'llvm.call' op missing var_callee_type attribute for vararg call}}
  llvm.call @callee(%a) : (i8) -> ()
  llvm.return
}

// -----

llvm.func @callee(i8, ...)
llvm.func @f(%a: i8) {
  // expected-error @+1 {{'llvm.call' op var_callee_type parameter type mismatch: 'i32' != 'i8'}}
  llvm.call @callee(%a) vararg(!llvm.func<void (i32, ...)>) : (i8) -> ()
  llvm.return
}

// -----

llvm.func @f() -> !llvm.struct<(f64, f64)> {
  // expected-error @+1 {{expected array attribute of size 2}}
  %0 = llvm.mlir.constant([1.0 : f64]) : !llvm.struct<(f64, f64)>
  llvm.return %0 : !llvm.struct<(f64, f64)>
}

// -----

llvm.func @f() -> !llvm.struct<(f64, f64)> {
  // expected-error @+1 {{struct element at index 1 is of wrong type}}
  %0 = llvm.mlir.constant([1.0 : f64, 2.0 : f32]) : !llvm.struct<(f64, f64)>
  llvm.return %0 : !llvm.struct<(f64, f64)>
}

// -----

llvm.func @f() -> vector<3xf32> {
  // expected-error @+1 {{type and attribute have a different number of elements: 3 vs. 2}}
  %0 = llvm.mlir.constant(dense<[1.0, 2.0]> : tensor<2xf32>) : vector<3xf32>
  llvm.return %0 : vector<3xf32>
}

// -----

llvm.func @f() -> f32 {
  // expected-error @+1 {{expected integer type}}
  %0 = llvm.mlir.constant(1 : i32) : f32
  llvm.return %0 : f32
}

// -----

llvm.func @f() -> i64 {
  // expected-error @+1 {{expected integer type of width 32}}
  %0 = llvm.mlir.constant(1.0 : f32) : i64
  llvm.return %0 : i64
}

// -----

llvm.func @f() -> f16 {
  // expected-error @+1 {{attribute and type have different float semantics}}
  %0 = llvm.mlir.constant(1.0 : bf16) : f16
  llvm.return %0 : f16
}

// -----

llvm.func @f() -> !llvm.array<4 x i8> {
  // expected-error @+1 {{expected array type of 3 i8 elements for the string constant}}
  %0 = llvm.mlir.constant("abc") : !llvm.array<4 x i8>
  llvm.return %0 : !llvm.array<4 x i8>
}

// -----

llvm.func @f() -> !llvm.array<1 x i32> {
  // expected-error @+1 {{for array with an array attribute must have a struct element type}}
  %0 = llvm.mlir.constant([1 : i32]) : !llvm.array<1 x i32>
  llvm.return %0 : !llvm.array<1 x i32>
}

// -----

llvm.func @ctor() {
  llvm.return
}
// expected-error @+1 {{ctors, priorities, and data must have the same number of elements}}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [], data = [#llvm.zero]

// -----

// expected-error @+1 {{'ctor' does not reference a valid LLVM function}}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [#llvm.zero]

// -----

llvm.func @dtor()
// expected-error @+1 {{'dtor' does not have a definition}}
llvm.mlir.global_dtors dtors = [@dtor], priorities = [0 : i32], data = [#llvm.zero]

// -----

llvm.func @ctor() {
  llvm.return
}
// expected-error @+1 {{data element must be symbol or #llvm.zero}}
llvm.mlir.global_ctors ctors = [@ctor], priorities = [0 : i32], data = [1 : i32]

// -----

llvm.func @f(%c: i1) {
  // expected-error @+1 {{expects number of branch weights to match number of successors: 3 vs 2}}
  llvm.cond_br %c weights([1, 2, 3]), ^bb1, ^bb1
^bb1:
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{invalid kind of attribute specified}}
  %0 = llvm.icmp 42 %a, %a : i32
  llvm.return
}

// -----

llvm.func @f(%a: i32) {
  // expected-error @+1 {{'foo' is an incorrect value of the 'predicate' attribute}}
  %0 = llvm.icmp "foo" %a, %a : i32
  llvm.return
}

// -----

llvm.func @f(%base: !llvm.ptr, %pos: i64) {
  // expected-error @+1 {{number of operands and types do not match: got 2 operands and 0 types}}
  %0 = llvm.getelementptr %base[%pos] : () -> (), i64
  llvm.return
}

// -----

llvm.func @f(%base: !llvm.ptr, %pos: i64) {
  // expected-error @+1 {{invalid kind of type specified: expected builtin.function, but found '!llvm.ptr'}}
  %0 = llvm.getelementptr %base[%pos] : !llvm.ptr
  llvm.return
}

// -----

llvm.func @f(%callee: !llvm.ptr, %a: i8) {
  // expected-error @+1 {{expected indirect call to have 2 trailing types}}
  %0 = llvm.call %callee(%a) : (i8) -> (i8)
  llvm.return
}

// -----

llvm.func @f(%n: i32) {
  // expected-error @+1 {{expected trailing function type with one argument and one result}}
  %0 = llvm.alloca %n x i32 : !llvm.ptr
  llvm.return
}
