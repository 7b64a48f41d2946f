// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @apply_operand_not_index(%arg0 : i32) {
  // expected-error @+1 {{operand #0 must be variadic of index, but got 'i32'}}
  %0 = "affine.apply"(%arg0) <{map = affine_map<(d0) -> (d0)>}> : (i32) -> (index)
  return
}

// -----

func.func @apply_result_not_index(%arg0 : index) {
  // expected-error @+1 {{result #0 must be index, but got 'i32'}}
  %0 = "affine.apply"(%arg0) <{map = affine_map<(d0) -> (d0)>}> : (index) -> (i32)
  return
}

// -----

func.func @apply_two_results(%arg0 : index) {
  // expected-error @+1 {{mapping must produce one value}}
  %0 = "affine.apply"(%arg0) <{map = affine_map<(d0) -> (d0, d0)>}> : (index) -> index
  return
}

// -----

func.func @apply_count_mismatch(%arg0 : index) {
  // expected-error @+1 {{dimension or symbol index mismatch}}
  %0 = affine.apply affine_map<(d0, d1) -> (d0 + d1)> (%arg0)
  return
}

// -----

func.func @apply_dim_as_symbol(%n : index) {
  affine.for %i = 0 to 10 {
    %x = arith.addi %i, %n : index
    // expected-error @+1 {{dimensional operand cannot be used as a symbol}}
    %w = affine.apply affine_map<()[s0] -> (s0)>()[%i]
  }
  return
}

// -----

#map = affine_map<(d0)[s0] -> (d0 + s0)>

func.func @for_lower_bound_invalid_dim(%arg : index) {
  affine.for %n0 = 0 to 7 {
    %dim = arith.addi %arg, %n0 : index
    // expected-error @+1 {{operand cannot be used as a dimension id}}
    affine.for %n1 = #map(%dim)[%arg] to 7 {
    }
  }
  return
}

// -----

#map = affine_map<(d0)[s0] -> (d0 + s0)>

func.func @for_upper_bound_invalid_sym() {
  affine.for %i0 = 0 to 7 {
    // expected-error @+1 {{operand cannot be used as a symbol}}
    affine.for %n0 = 0 to #map(%i0)[%i0] {
    }
  }
  return
}

// -----

func.func @load_scf_iv_not_dim(%m : memref<10xf32>, %n : index) {
  %c1 = arith.constant 1 : index
  scf.for %j = %n to %n step %c1 {
    // expected-error @+1 {{operand cannot be used as a dimension id}}
    %v = affine.load %m[%j] : memref<10xf32>
  }
  return
}

// -----

func.func @load_iv_not_symbol(%m : memref<10xf32>) {
  affine.for %i = 0 to 10 {
    // expected-error @+1 {{operand cannot be used as a symbol}}
    %v = affine.load %m[symbol(%i)] : memref<10xf32>
  }
  return
}

// -----

#set = affine_set<(i)[N] : (i >= 0, N - i >= 0)>

func.func @if_invalid_dim(%arg : index) {
  affine.for %n0 = 0 to 7 {
    %dim = arith.addi %arg, %n0 : index
    // expected-error @+1 {{operand cannot be used as a dimension id}}
    affine.if #set(%dim)[%n0] {}
  }
  return
}

// -----

#set = affine_set<(i)[N] : (i >= 0, N - i >= 0)>

func.func @if_invalid_sym() {
  affine.for %i0 = 0 to 7 {
    // expected-error @+1 {{operand cannot be used as a symbol}}
    affine.if #set(%i0)[%i0] {}
  }
  return
}

// -----

func.func @if_region_args(%n : index) {
  // expected-error @+1 {{region #0 should have no arguments}}
  "affine.if"(%n) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
  ^bb0(%arg: index):
    "affine.yield"() : () -> ()
  }, {
  }) : (index) -> ()
  return
}

// -----

func.func @if_operand_count(%n : index) {
  // expected-error @+1 {{operand count and condition integer set dimension and symbol count must match}}
  "affine.if"(%n, %n) <{condition = affine_set<(d0) : (d0 >= 0)>}> ({
    "affine.yield"() : () -> ()
  }, {
  }) : (index, index) -> ()
  return
}

// -----

func.func @store_missing_l_square(%C: memref<4096x4096xf32>) {
  %9 = arith.constant 0.0 : f32
  // expected-error @+1 {{expected '[' in affine map}}
  affine.store %9, %C : memref<4096x4096xf32>
  return
}

// -----

func.func @store_wrong_value_type(%C: memref<f32>) {
  %c0 = arith.constant 0 : i32
  // expected-error @+1 {{value to store must have the same type as memref element type}}
  "affine.store"(%c0, %C) <{map = affine_map<() -> ()>}> : (i32, memref<f32>) -> ()
  return
}

// -----

func.func @load_wrong_result_type(%C: memref<f32>) {
  // expected-error @+1 {{result type must match element type of memref}}
  %0 = "affine.load"(%C) <{map = affine_map<() -> ()>}> : (memref<f32>) -> i32
  return
}

// -----

func.func @load_map_rank(%C: memref<4xf32>, %i: index) {
  // expected-error @+1 {{affine map num results must equal memref rank}}
  %0 = "affine.load"(%C, %i) <{map = affine_map<(d0) -> (d0, d0)>}> : (memref<4xf32>, index) -> f32
  return
}

// -----

func.func @load_subscript_count(%C: memref<4xf32>, %i: index) {
  // expected-error @+1 {{expects as many subscripts as affine map inputs}}
  %0 = "affine.load"(%C, %i, %i) <{map = affine_map<(d0) -> (d0)>}> : (memref<4xf32>, index, index) -> f32
  return
}

// -----

func.func @load_non_affine(%m: memref<10x10xf32>, %n: index, %k: index) {
  // expected-error @+1 {{non-affine expression: at least one of the multiply operands has to be either a constant or symbolic}}
  %w = affine.load %m[%n * %k, 0] : memref<10x10xf32>
  return
}

// -----

func.func @load_non_affine_mod(%m: memref<10x10xf32>, %n: index, %k: index) {
  // expected-error @+1 {{non-affine expression: right operand of mod has to be either a constant or symbolic}}
  %w = affine.load %m[%n mod %k, 0] : memref<10x10xf32>
  return
}

// -----

func.func @min_operand_count(%arg0 : index, %arg1 : index) {
  // expected-error @+1 {{operand count and affine map dimension and symbol count must match}}
  %0 = affine.min affine_map<(d0) -> (d0)> (%arg0, %arg1)
  return
}

// -----

func.func @max_operand_count(%arg0 : index, %arg1 : index) {
  // expected-error @+1 {{operand count and affine map dimension and symbol count must match}}
  %0 = affine.max affine_map<()[s0] -> (s0)> (%arg0, %arg1)
  return
}

// -----

func.func @max_no_result() {
  // expected-error @+1 {{affine map expect at least one result}}
  %0 = affine.max affine_map<() -> ()> ()
  return
}

// -----

func.func @parallel_ivs() {
  // expected-error @+1 {{the number of region arguments (1) and the number of map groups for lower (2) and upper bound (2), and the number of steps (2) must all match}}
  affine.parallel (%i) = (0, 0) to (100, 100) step (10, 10) {
  }
  return
}

// -----

func.func @parallel_lower_groups() {
  // expected-error @+1 {{the number of region arguments (2) and the number of map groups for lower (1) and upper bound (2), and the number of steps (2) must all match}}
  affine.parallel (%i, %j) = (0) to (100, 100) step (10, 10) {
  }
  return
}

// -----

func.func @parallel_steps() {
  // expected-error @+1 {{the number of region arguments (2) and the number of map groups for lower (2) and upper bound (2), and the number of steps (1) must all match}}
  affine.parallel (%i, %j) = (0, 0) to (100, 100) step (10) {
  }
  return
}

// -----

func.func @parallel_invalid_dim() {
  affine.for %x = 0 to 7 {
    %y = arith.addi %x, %x : index
    // expected-error @+1 {{operand cannot be used as a dimension id}}
    affine.parallel (%i, %j) = (0, 0) to (%y, 100) step (10, 10) {
    }
  }
  return
}

// -----

func.func @parallel_invalid_symbol() {
  affine.for %x = 0 to 7 {
    %y = arith.addi %x, %x : index
    // expected-error @+1 {{operand cannot be used as a symbol}}
    affine.parallel (%i, %j) = (0, 0) to (symbol(%y), 100) step (10, 10) {
    }
  }
  return
}

// -----

func.func @parallel_missing_reduction(%m : memref<100x100xf32>) {
  // expected-error @+1 {{a reduction must be specified for each output}}
  %1 = affine.parallel (%i, %j) = (0, 0) to (100, 100) step (10, 10) -> (f32) {
    %2 = affine.load %m[%i, %j] : memref<100x100xf32>
    affine.yield %2 : f32
  }
  return
}

// -----

func.func @parallel_bad_reduction(%m : memref<100x100xf32>) {
  // expected-error @+1 {{invalid reduction value: "bad"}}
  %1 = affine.parallel (%i, %j) = (0, 0) to (100, 100) step (10, 10) reduce ("bad") -> (f32) {
    %2 = affine.load %m[%i, %j] : memref<100x100xf32>
    affine.yield %2 : f32
  }
  return
}

// -----

func.func @parallel_reduction_type(%m : memref<100x100xi32>) {
  // expected-error @+1 {{result type cannot match reduction attribute}}
  %1 = affine.parallel (%i, %j) = (0, 0) to (100, 100) reduce ("addf") -> (i32) {
    %2 = affine.load %m[%i, %j] : memref<100x100xi32>
    affine.yield %2 : i32
  }
  return
}

// -----

func.func @parallel_steps_not_constant(%n : index) {
  // expected-error @+1 {{steps must be constant integers}}
  affine.parallel (%i) = (0) to (100) step (%n) {
  }
  return
}

// -----

func.func @yield_type_mismatch(%m : memref<100x100xi32>) {
  %1 = affine.parallel (%i, %j) = (0, 0) to (100, 100) step (10, 10) reduce ("minimumf") -> (f32) {
    %2 = affine.load %m[%i, %j] : memref<100x100xi32>
    // expected-error @+1 {{types mismatch between yield op and its parent}}
    affine.yield %2 : i32
  }
  return
}

// -----

func.func @yield_count_mismatch(%n : index) {
  %r = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> index {
    // expected-error @+1 {{parent of yield must have same number of results as the yield operands}}
    affine.yield
  } else {
    affine.yield %n : index
  }
  return
}

// -----

func.func @yield_outside_affine() {
  // expected-error @+1 {{only terminates affine.if/for/parallel regions}}
  affine.yield
}

// -----

func.func @vector_load_element_type() {
  %0 = memref.alloc() : memref<100xf32>
  affine.for %i0 = 0 to 16 step 8 {
    // expected-error @+1 {{requires memref and vector types of the same elemental type}}
    %1 = affine.vector_load %0[%i0] : memref<100xf32>, vector<8xf64>
  }
  return
}

// -----

func.func @vector_store_element_type() {
  %0 = memref.alloc() : memref<100xf32>
  %1 = arith.constant dense<7.0> : vector<8xf64>
  affine.for %i0 = 0 to 16 step 8 {
    // expected-error @+1 {{requires memref and vector types of the same elemental type}}
    affine.vector_store %1, %0[%i0] : memref<100xf32>, vector<8xf64>
  }
  return
}

// -----

func.func @for_iter_args_mismatch(%buffer: memref<1024xf32>) -> f32 {
  %sum_0 = arith.constant 0.0 : f32
  // expected-error @+1 {{mismatch between the number of loop-carried values and results}}
  %res = affine.for %i = 0 to 10 step 2 iter_args(%sum_iter = %sum_0) -> (f32, f32) {
    %t = affine.load %buffer[%i] : memref<1024xf32>
    affine.yield %t : f32
  }
  return %res : f32
}

// -----

func.func @for_negative_step() {
  // expected-error @+1 {{expected step to be representable as a positive signed integer}}
  affine.for %i = 1 to 10 step -1 {
  }
  return
}

// -----

func.func @missing_for_max(%arg0: index, %arg1: index) {
  // expected-error @+1 {{lower loop bound affine map with multiple results requires 'max' prefix}}
  affine.for %i0 = affine_map<()[s]->(0,s-1)>()[%arg0] to %arg1 {
  }
  return
}

// -----

func.func @missing_for_min(%arg0: index, %arg1: index) {
  // expected-error @+1 {{upper loop bound affine map with multiple results requires 'min' prefix}}
  affine.for %i0 = %arg0 to affine_map<()[s]->(100,s+1)>()[%arg1] {
  }
  return
}

// -----

func.func @delinearize_result_count(%idx: index, %basis0: index, %basis1 :index) {
  // expected-error @+1 {{should return an index for each basis element and up to one extra index}}
  %1 = affine.delinearize_index %idx into (%basis0, %basis1) : index
  return
}

// -----

func.func @delinearize_non_positive(%idx: index) {
  // expected-error @+1 {{no basis element may be statically non-positive}}
  %1:2 = affine.delinearize_index %idx into (0, 4) : index, index
  return
}

// -----

func.func @linearize_operand_count(%a: index, %b: index, %c: index) {
  // expected-error @+1 {{should be passed a basis element for each index except possibly the first}}
  %1 = affine.linearize_index [%a] by (4, 5) : index
  return
}

// -----

func.func @for_zero_step() {
  // expected-error @+1 {{expected step to be a positive integer, got 0}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 0 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_empty_lower_bound() {
  // expected-error @+1 {{expected lower bound map to have at least one result}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> ()>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_iv_not_index() {
  // expected-error @+1 {{expected body to have an index argument for the induction variable}}
  "affine.for"() <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 0>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: f32):
    "affine.yield"() : () -> ()
  }) : () -> ()
  return
}

// -----

func.func @for_init_type(%n: index) {
  // expected-error @+1 {{along control flow edge from parent to Region #0: successor operand type #0 'index' should match successor input type #0 'f32'}}
  %r = "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index, %a: f32):
    "affine.yield"(%a) : (f32) -> ()
  }) : (index) -> f32
  return
}

// -----

func.func @for_yield_count(%n: index) {
  // expected-error @+1 {{region branch point has 0 operands, but region successor needs 1 inputs}}
  "affine.for"(%n) <{lowerBoundMap = affine_map<() -> (0)>, operandSegmentSizes = array<i32: 0, 0, 1>, step = 1 : index, upperBoundMap = affine_map<() -> (10)>}> ({
  ^bb0(%i: index, %a: index):
    "affine.yield"() : () -> ()
  }) : (index) -> ()
  return
}
