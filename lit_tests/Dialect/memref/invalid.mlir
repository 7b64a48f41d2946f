// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @cast_shape(%a: memref<4xf32>) {
  // expected-error @+1 {{operand type 'memref<4xf32>' and result type 'memref<5xf32>' are cast incompatible}}
  %0 = memref.cast %a : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @cast_element(%a: memref<4xf32>) {
  // expected-error @+1 {{operand type 'memref<4xf32>' and result type 'memref<4xi32>' are cast incompatible}}
  %0 = memref.cast %a : memref<4xf32> to memref<4xi32>
  return
}

// -----

func.func @cast_unranked(%a: memref<*xf32>) {
  // expected-error @+1 {{operand type 'memref<*xf32>' and result type 'memref<*xi32>' are cast incompatible}}
  %0 = memref.cast %a : memref<*xf32> to memref<*xi32>
  return
}

// -----

func.func @cast_layout(%a: memref<4xf32, strided<[1], offset: 2>>) {
  // expected-error @+1 {{are cast incompatible}}
  %0 = memref.cast %a : memref<4xf32, strided<[1], offset: 2>> to memref<4xf32, strided<[1], offset: 3>>
  return
}

// -----

func.func @copy_shape(%a: memref<4xf32>, %b: memref<5xf32>) {
  // expected-error @+1 {{requires the same shape for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<5xf32>
  return
}

// -----

func.func @copy_element(%a: memref<4xf32>, %b: memref<4xi32>) {
  // expected-error @+1 {{requires the same element type for all operands}}
  memref.copy %a, %b : memref<4xf32> to memref<4xi32>
  return
}

// -----

// expected-error @+1 {{type should be static shaped memref, but got 'memref<?xi32>'}}
memref.global @dynamic : memref<?xi32> = uninitialized

// -----

// expected-error @+1 {{initial value shape expected to be 4, 2 but was 3, 2}}
"memref.global"() <{sym_name = "bad_init", type = memref<4x2xi32>, initial_value = dense<1> : tensor<3x2xi32>}> : () -> ()

// -----

// expected-error @+1 {{initial value element expected to be of type 'i32', but was of type 'i64'}}
"memref.global"() <{sym_name = "bad_elt", type = memref<4xi32>, initial_value = dense<1> : tensor<4xi64>}> : () -> ()

// -----

// expected-error @+1 {{initial value should be a unit or elements attribute, but got 1 : i32}}
"memref.global"() <{sym_name = "bad_kind", type = memref<4xi32>, initial_value = 1 : i32}> : () -> ()

// -----

// expected-error @+1 {{type should be static shaped memref, but got 'memref<?xi32>'}}
"memref.global"() <{sym_name = "generic_dynamic", type = memref<?xi32>}> : () -> ()

// -----

// expected-error @+1 {{attribute 'alignment' failed to satisfy constraint}}
memref.global @align : memref<4xi32> = uninitialized {alignment = 3}

// -----

memref.global @g : memref<4xi32>

func.func @get_global_type() {
  // expected-error @+1 {{result type 'memref<5xi32>' does not match type 'memref<4xi32>' of the global memref @g}}
  %0 = memref.get_global @g : memref<5xi32>
  return
}

// -----

func.func @get_global_missing() {
  // expected-error @+1 {{'missing' does not reference a valid global memref}}
  %0 = memref.get_global @missing : memref<5xi32>
  return
}

// -----

func.func @atomic_float_kind(%m: memref<4xi32>, %i: index, %v: i32) {
  // expected-error @+1 {{with kind 'addf' expects a floating-point type}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (i32, memref<4xi32>) -> i32
  return
}

// -----

func.func @atomic_int_kind(%m: memref<4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{with kind 'addi' expects an integer type}}
  %0 = memref.atomic_rmw addi %v, %m[%i] : (f32, memref<4xf32>) -> f32
  return
}

// -----

func.func @atomic_subscripts(%m: memref<4x4xf32>, %i: index, %v: f32) {
  // expected-error @+1 {{invalid number of indices for accessed memref, expected 2 but got 1}}
  %0 = memref.atomic_rmw addf %v, %m[%i] : (f32, memref<4x4xf32>) -> f32
  return
}

// -----

func.func @rank_tensor(%t: tensor<4xf32>) {
  // expected-error @+1 {{operand #0 must be ranked or unranked memref of any non-token type values, but got 'tensor<4xf32>'}}
  %0 = "memref.rank"(%t) : (tensor<4xf32>) -> index
  return
}

// -----

func.func @copy_tensor(%t: tensor<4xf32>, %m: memref<4xf32>) {
  // expected-error @+1 {{operand #0 must be ranked or unranked memref of any non-token type values, but got 'tensor<4xf32>'}}
  "memref.copy"(%t, %m) : (tensor<4xf32>, memref<4xf32>) -> ()
  return
}

// -----

func.func @reshape_element(%a: memref<4xf32>, %s: memref<1xi32>) {
  // expected-error @+1 {{element types of source and destination memref types should be the same}}
  %0 = memref.reshape %a(%s) : (memref<4xf32>, memref<1xi32>) -> memref<4xi32>
  return
}

// -----

func.func @reshape_source_layout(%a: memref<4xf32, strided<[2]>>, %s: memref<1xi32>) {
  // expected-error @+1 {{source memref type should have identity affine map}}
  %0 = memref.reshape %a(%s) : (memref<4xf32, strided<[2]>>, memref<1xi32>) -> memref<4xf32>
  return
}

// -----

func.func @reshape_result_layout(%a: memref<4xf32>, %s: memref<2xi32>) {
  // A row-major strided layout is still not the identity map.
  // expected-error @+1 {{result memref type should have identity affine map}}
  %0 = memref.reshape %a(%s) : (memref<4xf32>, memref<2xi32>) -> memref<2x2xf32, strided<[2, 1]>>
  return
}

// -----

func.func @reshape_dynamic_length(%a: memref<4xf32>, %s: memref<?xi32>) {
  // expected-error @+1 {{cannot use shape operand with dynamic length to reshape to statically-ranked memref type}}
  %0 = memref.reshape %a(%s) : (memref<4xf32>, memref<?xi32>) -> memref<4xf32>
  return
}

// -----

func.func @reshape_length(%a: memref<4xf32>, %s: memref<2xi32>) {
  // expected-error @+1 {{length of shape operand differs from the result's memref rank}}
  %0 = memref.reshape %a(%s) : (memref<4xf32>, memref<2xi32>) -> memref<4xf32>
  return
}

// -----

func.func @reshape_shape_element(%a: memref<4xf32>, %s: memref<1xf32>) {
  // expected-error @+1 {{operand #1 must be 1D memref of signless integer or index values, but got 'memref<1xf32>'}}
  %0 = memref.reshape %a(%s) : (memref<4xf32>, memref<1xf32>) -> memref<4xf32>
  return
}

// -----

func.func @reshape_shape_rank(%a: memref<4xf32>, %s: memref<1x1xindex>) {
  // expected-error @+1 {{operand #1 must be 1D memref of signless integer or index values, but got 'memref<1x1xindex>'}}
  %0 = memref.reshape %a(%s) : (memref<4xf32>, memref<1x1xindex>) -> memref<4xf32>
  return
}

// -----

func.func @transpose_not_permutation(%v: memref<?x?xf32>) {
  // expected-error @+1 {{expected a permutation map}}
  %0 = memref.transpose %v (i, j) -> (j, j) : memref<?x?xf32> to memref<?x?xf32>
  return
}

// -----

func.func @transpose_rank(%v: memref<?x?xf32>) {
  // expected-error @+1 {{expected a permutation map of same rank as the input}}
  %0 = memref.transpose %v (i) -> (i) : memref<?x?xf32> to memref<?x?xf32>
  return
}

// -----

func.func @transpose_result_layout(%v: memref<2x3xf32>) {
  // The transposed view is not contiguous, so it cannot have the identity layout.
  // expected-error @+1 {{result type 'memref<3x2xf32>' is not equivalent to the canonical transposed input type 'memref<3x2xf32, affine_map<(d0, d1) -> (d0 + d1 * 3)>>'}}
  %0 = memref.transpose %v (i, j) -> (j, i) : memref<2x3xf32> to memref<3x2xf32>
  return
}

// -----

func.func @transpose_dynamic_strides(%v: memref<?x?xf32>) {
  // expected-error @+1 {{result type 'memref<?x?xf32, strided<[?, ?]>>' is not equivalent to the canonical transposed input type 'memref<?x?xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * s0)>>'}}
  %0 = memref.transpose %v (i, j) -> (j, i) : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?]>>
  return
}

// -----

func.func @transpose_offset(%v: memref<2x3xf32, strided<[3, 1], offset: ?>>) {
  // expected-error @+1 {{is not equivalent to the canonical transposed input type 'memref<3x2xf32, affine_map<(d0, d1)[s0] -> (d0 + d1 * 3 + s0)>>'}}
  %0 = memref.transpose %v (i, j) -> (j, i) : memref<2x3xf32, strided<[3, 1], offset: ?>> to memref<3x2xf32, strided<[1, 3], offset: 4>>
  return
}

// -----

func.func @transpose_not_strided(%v: memref<2x3xf32, affine_map<(i, j) -> (j, i)>>) {
  // expected-error @+1 {{operand #0 must be strided memref of any non-token type values, but got 'memref<2x3xf32, affine_map<(d0, d1) -> (d1, d0)>>'}}
  %0 = memref.transpose %v (i, j) -> (j, i) : memref<2x3xf32, affine_map<(i, j) -> (j, i)>> to memref<3x2xf32, strided<[1, 3]>>
  return
}

// -----

func.func @transpose_missing_permutation(%v: memref<2x3xf32>) {
  // expected-error @+1 {{requires attribute 'permutation'}}
  %0 = "memref.transpose"(%v) : (memref<2x3xf32>) -> memref<3x2xf32, strided<[1, 3]>>
  return
}

// -----

func.func @transpose_unranked(%u: memref<*xf32>) {
  // expected-error @+1 {{expected builtin.memref, but found 'memref<*xf32>'}}
  %0 = memref.transpose %u (i, j) -> (j, i) : memref<*xf32> to memref<3x2xf32, strided<[1, 3]>>
  return
}

// -----

func.func @prefetch_indices(%m: memref<4x4xf32>, %i: index) {
  // expected-error @+1 {{invalid number of indices for accessed memref, expected 2 but got 1}}
  memref.prefetch %m[%i], read, locality<3>, data : memref<4x4xf32>
  return
}

// -----

func.func @prefetch_locality(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{attribute 'localityHint' failed to satisfy constraint: 32-bit signless integer attribute whose minimum value is 0 whose maximum value is 3}}
  memref.prefetch %m[%i], read, locality<4>, data : memref<4xf32>
  return
}

// -----

func.func @prefetch_rw(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{rw specifier has to be 'read' or 'write'}}
  memref.prefetch %m[%i], readwrite, locality<3>, data : memref<4xf32>
  return
}

// -----

func.func @prefetch_cache(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{cache type has to be 'data' or 'instr'}}
  memref.prefetch %m[%i], read, locality<3>, code : memref<4xf32>
  return
}

// -----

func.func @prefetch_unranked(%m: memref<*xf32>) {
  // expected-error @+1 {{operand #0 must be memref of any non-token type values, but got 'memref<*xf32>'}}
  "memref.prefetch"(%m) <{isDataCache = true, isWrite = false, localityHint = 3 : i32}> : (memref<*xf32>) -> ()
  return
}

// -----

func.func @prefetch_missing_hint(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{requires attribute 'localityHint'}}
  "memref.prefetch"(%m, %i) <{isDataCache = true, isWrite = false}> : (memref<4xf32>, index) -> ()
  return
}

// -----

func.func @load_index_count(%m: memref<4xf32>, %i: index) {
  // expected-error @+1 {{'memref.load' op invalid number of indices for accessed memref, expected 1 but got 2}}
  %v = memref.load %m[%i, %i] : memref<4xf32>
  return
}

// -----

// The op's own check, not the missing terminator, is reported first.
func.func @store_index_count(%m: memref<4xf32>, %x: f32) {
  // expected-error @+1 {{'memref.store' op invalid number of indices for accessed memref, expected 1 but got 0}}
  memref.store %x, %m[] : memref<4xf32>
}

// -----

func.func @reinterpret_cast_offsets(%in: memref<?xf32>) {
  // expected-error @+1 {{expected 1 offset values, got 2}}
  %0 = memref.reinterpret_cast %in to offset: [0, 0], sizes: [10, 10], strides: [10, 1]
       : memref<?xf32> to memref<10x10xf32, strided<[10, 1]>>
  return
}

// -----

func.func @reinterpret_cast_offset(%in: memref<?xf32>) {
  // expected-error @+1 {{expected result type with offset = 2 instead of 0}}
  %0 = memref.reinterpret_cast %in to offset: [2], sizes: [10], strides: [1]
       : memref<?xf32> to memref<10xf32>
  return
}

// -----

func.func @reinterpret_cast_dynamic_offset(%in: memref<?xf32>, %off: index) {
  // expected-error @+1 {{expected result type with offset = dynamic instead of 0}}
  %0 = memref.reinterpret_cast %in to offset: [%off], sizes: [10], strides: [1]
       : memref<?xf32> to memref<10xf32>
  return
}

// -----

func.func @reinterpret_cast_size(%in: memref<?xf32>) {
  // expected-error @+1 {{expected result type with size = 10 instead of 11 in dim = 0}}
  %0 = memref.reinterpret_cast %in to offset: [0], sizes: [10], strides: [1]
       : memref<?xf32> to memref<11xf32>
  return
}

// -----

func.func @reinterpret_cast_stride(%in: memref<?xf32>) {
  // expected-error @+1 {{expected result type with stride = 2 instead of 1 in dim = 0}}
  %0 = memref.reinterpret_cast %in to offset: [0], sizes: [10], strides: [2]
       : memref<?xf32> to memref<10xf32>
  return
}

// -----

func.func @reinterpret_cast_element(%in: memref<?xf32>) {
  // expected-error @+1 {{source element type ('f32') does not match result element type ('i32')}}
  %0 = memref.reinterpret_cast %in to offset: [0], sizes: [10], strides: [1]
       : memref<?xf32> to memref<10xi32>
  return
}

// -----

func.func @reinterpret_cast_sizes_rank(%in: memref<?xf32>) {
  // expected-error @+1 {{expected 2 size values, got 1}}
  %0 = memref.reinterpret_cast %in to offset: [0], sizes: [10], strides: [1]
       : memref<?xf32> to memref<10x2xf32>
  return
}

// -----

func.func @expand_shape_groups(%arg0: memref<?x?xf32>, %sz0: index, %sz1: index) {
  // expected-error @+1 {{invalid number of reassociation groups: found 1, expected 2}}
  %0 = memref.expand_shape %arg0 [[0, 1]] output_shape [%sz0, 5, %sz1] : memref<?x?xf32> into memref<?x5x?xf32>
  return
}

// -----

func.func @expand_shape_output_shape(%arg0: memref<2xf32>) {
  // expected-error @+1 {{expected number of static shape bounds to be equal to the output rank (3) but found 2 inputs instead}}
  %0 = memref.expand_shape %arg0 [[0, 1, 2]] output_shape [1, 2] : memref<2xf32> into memref<1x1x2xf32>
  return
}

// -----

func.func @expand_shape_contiguous(%arg0: memref<2x3xf32>) {
  // expected-error @+1 {{reassociation indices must be contiguous}}
  %0 = memref.expand_shape %arg0 [[0, 2], [1]] output_shape [2, 3, 1] : memref<2x3xf32> into memref<2x3x1xf32>
  return
}

// -----

func.func @expand_shape_group_size(%arg0: memref<2x3xf32>) {
  // expected-error @+1 {{collapsed dim size (2) must equal reassociation group size (4)}}
  %0 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [2, 2, 3] : memref<2x3xf32> into memref<2x2x3xf32>
  return
}

// -----

func.func @expand_shape_layout(%arg0: memref<2x3xf32, strided<[6, 1]>>) {
  // expected-error @+1 {{expected expanded type to be 'memref<2x1x3xf32, strided<[6, 6, 1]>>' but found 'memref<2x1x3xf32>'}}
  %0 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [2, 1, 3] : memref<2x3xf32, strided<[6, 1]>> into memref<2x1x3xf32>
  return
}

// -----

func.func @expand_shape_bound(%arg0: memref<2x3xf32>) {
  // expected-error @+1 {{invalid output shape provided at pos 2}}
  %0 = memref.expand_shape %arg0 [[0, 1], [2]] output_shape [2, 1, 4] : memref<2x3xf32> into memref<2x1x3xf32>
  return
}
