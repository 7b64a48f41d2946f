// RUN: mlkit-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// Verifier errors in upstream's words and order: the invariants every op
// gets from ODS (counts, attributes, single-block regions), ops' own checks,
// and region traits checked after the ops nested in the region.

func.func @operand_count(%x : i64) {
  // expected-error @+1 {{'arith.muli' op expected 2 operands, but found 1}}
  %y = "arith.muli"(%x) : (i64) -> i64
  return
}

// -----

func.func @result_count(%x : i64) {
  // expected-error @+1 {{'arith.muli' op requires one result}}
  "arith.muli"(%x, %x) : (i64, i64) -> ()
  return
}

// -----

func.func @region_count(%x : i64) {
  // expected-error @+1 {{'arith.muli' op requires zero regions}}
  %y = "arith.muli"(%x, %x) ({}) : (i64, i64) -> i64
  return
}

// -----

func.func @at_least_operands(%m : memref<8xf32>) {
  // expected-error @+1 {{'memref.store' op expected 2 or more operands, but found 1}}
  "memref.store"(%m) : (memref<8xf32>) -> ()
  return
}

// -----

func.func @two_regions(%c : i1) {
  // expected-error @+1 {{'scf.if' op expected 2 regions}}
  "scf.if"(%c) ({ "scf.yield"() : () -> () }) : (i1) -> ()
  return
}

// -----

func.func @missing_attribute() {
  // expected-error @+1 {{'arith.constant' op requires attribute 'value'}}
  %c = "arith.constant"() : () -> i64
  return
}

// -----

func.func @two_blocks(%n : index) {
  // expected-error @+1 {{'scf.for' op expects region #0 to have 0 or 1 blocks}}
  "scf.for"(%n, %n, %n) ({
  ^bb0(%i : index):
    cf.br ^bb1
  ^bb1:
    scf.yield
  }) : (index, index, index) -> ()
  return
}

// -----

// expected-error @+1 {{'memref.global' op visibility expected to be one of ["public", "private", "nested"], but got "hidden"}}
memref.global "hidden" @wrong_visibility : memref<4xf32> = uninitialized

// -----

func.func @nested_error_first(%n : index) {
  affine.for %i = 0 to 4 {
    // expected-error @+1 {{'func.return' op expects parent op 'func.func'}}
    "func.return"() : () -> ()
  }
  return
}

// -----

func.func @wrong_terminator(%n : index) {
  // expected-error @+2 {{'scf.for' op expects regions to end with 'scf.yield', found 'test.last'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'scf.yield'}}
  "scf.for"(%n, %n, %n) ({
  ^bb0(%i : index):
    "test.last"() : () -> ()
  }) : (index, index, index) -> ()
  return
}

// -----

func.func @for_bound_type(%x : f64, %n : index) {
  // expected-error @+1 {{'scf.for' op operand #1 must be signless integer or index, but got 'f64'}}
  "scf.for"(%n, %x, %n) ({
  ^bb0(%i : index):
    scf.yield
  }) : (index, f64, index) -> ()
  return
}

// -----

func.func @yield_count(%n : index, %a : i64) {
  // expected-error @+1 {{'scf.for' op different number of region iter_args and yielded values: 2 != 1}}
  %r:2 = "scf.for"(%n, %n, %n, %a, %a) ({
  ^bb0(%i : index, %p : i64, %q : i64):
    scf.yield %p : i64
  }) : (index, index, index, i64, i64) -> (i64, i64)
  return
}

// -----

func.func @if_condition(%n : index) {
  // expected-error @+1 {{'scf.if' op operand #0 must be 1-bit signless integer, but got 'index'}}
  "scf.if"(%n) ({ scf.yield }, { scf.yield }) : (index) -> ()
  return
}

// -----

func.func @reduce_type(%n : index, %f : f64) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%f) -> f64 {
    // expected-error @+1 {{'scf.reduce' op expects type of 0-th reduction operand: 'index' to be the same as the 0-th result type: 'f64'}}
    scf.reduce(%i : index) {
    ^bb0(%a : index, %b : index):
      scf.reduce.return %a : index
    }
  }
  return
}

// -----

func.func @reduce_body(%n : index, %f : f64) {
  %r = scf.parallel (%i) = (%n) to (%n) step (%n) init (%f) -> f64 {
    // expected-error @+1 {{empty block: expect at least a terminator}}
    scf.reduce(%f : f64) {
    ^bb0(%a : f64, %b : f64):
    }
  }
  return
}

// -----

func.func @cmpi_predicate(%x : i16) {
  // expected-error @+1 {{'arith.cmpi' op attribute 'predicate' failed to satisfy constraint: allowed 64-bit signless integer cases: 0, 1, 2, 3, 4, 5, 6, 7, 8, 9}}
  %b = "arith.cmpi"(%x, %x) {predicate = 10 : i64} : (i16, i16) -> i1
  return
}

// -----

func.func @cmpf_keyword(%x : f16) {
  // expected-error @+1 {{custom op 'arith.cmpf' expected string or keyword containing one of the following enum values for attribute 'predicate' [false, oeq, ogt, oge, olt, ole, one, ord, ueq, ugt, uge, ult, ule, une, uno, true]}}
  %b = arith.cmpf slt, %x, %x : f16
  return
}

// -----

func.func @cmpi_result(%x : i16) {
  // expected-error @+1 {{'arith.cmpi' op result #0 must be bool-like, but got 'i16'}}
  %b = "arith.cmpi"(%x, %x) {predicate = 0 : i64} : (i16, i16) -> i16
  return
}

// -----

func.func @unsigned_constant() {
  // expected-error @+1 {{'arith.constant' op integer return type must be signless}}
  %c = arith.constant 3 : ui8
  return
}

// -----

func.func @constant_type() {
  // expected-error @+1 {{'arith.constant' op failed to verify that all of {value, result} have same type}}
  %c = "arith.constant"() {value = 3 : i16} : () -> i8
  return
}

// -----

func.func @overflow_kind(%x : vector<4xi16>) {
  // expected-error @+1 {{'arith.addui_extended' op if an operand is non-scalar, then all results must be non-scalar}}
  %s, %o = arith.addui_extended %x, %x : vector<4xi16>, i1
  return
}

// -----

func.func @bitcast_width(%x : i16) {
  // expected-error @+1 {{'arith.bitcast' op operand type 'i16' and result type 'f32' are cast incompatible}}
  %y = arith.bitcast %x : i16 to f32
  return
}

// -----

func.func @cast_dims(%x : tensor<3xi64>) {
  // expected-error @+1 {{'arith.index_cast' op failed to verify that input and output have the same tensor dimensions}}
  %y = arith.index_cast %x : tensor<3xi64> to tensor<?xindex>
  return
}

// -----

func.func @broadcast_rank(%v : vector<2x3xf32>) {
  // expected-error @+1 {{'vector.broadcast' op source rank higher than destination rank}}
  %w = vector.broadcast %v : vector<2x3xf32> to vector<3xf32>
  return
}

// -----

func.func @broadcast_dim(%v : vector<3xf32>) {
  // expected-error @+1 {{'vector.broadcast' op dimension mismatch (3 vs. 5)}}
  %w = vector.broadcast %v : vector<3xf32> to vector<2x5xf32>
  return
}

// -----

func.func @shuffle_element(%a : vector<4xf16>, %b : vector<4xf32>) {
  // expected-error @+1 {{'vector.shuffle' op failed to verify that second operand v2 and result have same element type}}
  %s = vector.shuffle %a, %b [0, 5] : vector<4xf16>, vector<4xf32>
  return
}

// -----

func.func @shuffle_mask(%a : vector<4xf32>, %b : vector<4xf32>) {
  // expected-error @+1 {{'vector.shuffle' op mask index #3 out of range}}
  %s = vector.shuffle %a, %b [0, 7, 8] : vector<4xf32>, vector<4xf32>
  return
}

// -----

func.func @insert_rank(%s : vector<2xf32>, %d : vector<3x4x2xf32>) {
  // expected-error @+1 {{'vector.insert' op expected position attribute rank + source rank to match dest vector rank}}
  %r = vector.insert %s, %d[1] : vector<2xf32> into vector<3x4x2xf32>
  return
}

// -----

func.func @outer_result(%a : vector<2xf32>, %b : vector<3xf32>) {
  // expected-error @+1 {{'vector.outerproduct' op expected 2-d vector result}}
  %r = "vector.outerproduct"(%a, %b) : (vector<2xf32>, vector<3xf32>) -> vector<3xf32>
  return
}

// -----

func.func @transfer_indices(%m : memref<?xf32>, %i : index, %p : f32) {
  // expected-error @+1 {{'vector.transfer_read' op requires 1 indices}}
  %v = vector.transfer_read %m[%i, %i], %p : memref<?xf32>, vector<4xf32>
  return
}

// -----

func.func @transfer_types(%m : memref<?xf32>, %i : index, %p : f32) {
  // expected-error @+1 {{custom op 'vector.transfer_read' requires two types}}
  %v = vector.transfer_read %m[%i], %p : memref<?xf32>
  return
}

// -----

func.func @shuffle_result(%x : f32, %o : i32, %w : i32) {
  // expected-error @+1 {{'gpu.shuffle' op failed to verify that all of {value, shuffleResult} have same type}}
  %r, %ok = "gpu.shuffle"(%x, %o, %w) {mode = #gpu<shuffle_mode down>} : (f32, i32, i32) -> (f16, i1)
  return
}

// -----

func.func @unnamed_async() {
  // expected-error @+1 {{custom op 'gpu.wait' needs to be named when marked 'async'}}
  gpu.wait async
  return
}

// -----

func.func @launch_sizes(%n : index) {
  // expected-error @+1 {{'gpu.launch' op expected 6 or more operands, but found 4}}
  "gpu.launch"(%n, %n, %n, %n) ({
    gpu.terminator
  }) {operandSegmentSizes = array<i32: 0, 1, 1, 1, 1, 0, 0, 0>} : (index, index, index, index) -> ()
  return
}
