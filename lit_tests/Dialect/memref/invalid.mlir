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
