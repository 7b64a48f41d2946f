// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

func.func @contract_map_count(%a: vector<3xf32>, %s: f32) -> f32 {
  // expected-error @+1 {{expected an indexing map for each vector operand}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["reduction"]} %a, %a, %s : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @contract_inputs(%a: vector<3xf32>, %s: f32) -> f32 {
  // expected-error @+1 {{expected indexing map 0 to have 1 number of inputs}}
  %0 = vector.contract {indexing_maps = [affine_map<(k, l) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %a, %a, %s : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @contract_outputs(%a: vector<3xf32>, %s: f32) -> f32 {
  // expected-error @+1 {{expected indexing map 2 to have 0 number of outputs}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["reduction"]} %a, %a, %s : vector<3xf32>, vector<3xf32> into f32
  return %0 : f32
}

// -----

func.func @contract_no_reduction(%a: vector<3xf32>, %c: vector<3xf32>) -> vector<3xf32> {
  // expected-error @+1 {{expected at least one contracting dimension pair}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> (k)>], iterator_types = ["parallel"]} %a, %a, %c : vector<3xf32>, vector<3xf32> into vector<3xf32>
  return %0 : vector<3xf32>
}

// -----

func.func @contract_sizes(%a: vector<3xf32>, %b: vector<4xf32>, %s: f32) -> f32 {
  // expected-error @+1 {{invalid contracting dimension map}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %a, %b, %s : vector<3xf32>, vector<4xf32> into f32
  return %0 : f32
}

// -----

func.func @contract_acc_shape(%a: vector<2x3xf32>, %b: vector<3x4xf32>, %c: vector<2x5xf32>) -> vector<2x5xf32> {
  // expected-error @+1 {{invalid accumulator/result vector shape, expected: vector<2x4xf32>}}
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x5xf32>
  return %0 : vector<2x5xf32>
}

// -----

func.func @contract_kind(%a: vector<3xi32>, %s: i32) -> i32 {
  // expected-error @+1 {{unsupported contraction type}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"], kind = #vector.kind<maxnumf>} %a, %a, %s : vector<3xi32>, vector<3xi32> into i32
  return %0 : i32
}

// -----

func.func @outerproduct_rank(%a: vector<2x3xf32>, %b: vector<3xf32>) {
  // expected-error @+1 {{expected 1-d vector for operand #1}}
  %0 = vector.outerproduct %a, %b : vector<2x3xf32>, vector<3xf32>
  return
}

// -----

func.func @outerproduct_acc(%a: vector<3xf32>, %b: vector<3xf32>, %c: vector<3x2xf32>) {
  // expected-error @+1 {{expected #2 operand dim to match result dim #2}}
  %0 = "vector.outerproduct"(%a, %b, %c) <{kind = #vector.kind<add>}> : (vector<3xf32>, vector<3xf32>, vector<3x2xf32>) -> vector<3x2xf32>
  return
}

// -----

func.func @mask_two_ops(%m: vector<4xi1>, %v: vector<4xf32>) {
  // expected-error @+1 {{expects only one operation to mask}}
  %0 = vector.mask %m {
    %1 = vector.reduction <add>, %v : vector<4xf32> into f32
    %2 = vector.reduction <add>, %v : vector<4xf32> into f32
    vector.yield %2 : f32
  } : vector<4xi1> -> f32
  return
}

// -----

func.func @mask_not_maskable(%m: vector<4xi1>, %v: vector<4xf32>) {
  // expected-error @+1 {{expects a MaskableOpInterface within the mask region}}
  %0 = vector.mask %m { vector.fma %v, %v, %v : vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  return
}

// -----

func.func @create_mask_sizes(%i: index) {
  // expected-error @+1 {{must specify an operand for each result vector dimension}}
  %0 = vector.create_mask %i : vector<2x4xi1>
  return
}

// -----

func.func @contract_scalar_operand(%a: f32, %s: f32) -> f32 {
  // expected-error @+1 {{operand #0 must be vector of non-zero-bitwidth type values, but got 'f32'}}
  %0 = "vector.contract"(%a, %a, %s) <{indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = [#vector.iterator_type<reduction>], kind = #vector.kind<add>}> : (f32, f32, f32) -> f32
  return %0 : f32
}

// -----

func.func @contract_signed(%a: vector<3xsi8>, %s: si8) -> si8 {
  // expected-error @+1 {{only supports signless integer types}}
  %0 = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %a, %a, %s : vector<3xsi8>, vector<3xsi8> into si8
  return %0 : si8
}

// -----

func.func @print_string_and_value(%v: vector<4xf32>) {
  // expected-error @+1 {{failed to verify that `source` or `punctuation` are not set when printing strings}}
  vector.print %v : vector<4xf32> str "both"
  return
}

// -----

func.func @mask_shape(%m: vector<3xi1>, %mem: memref<?xf32>, %i: index) -> vector<4xf32> {
  %pad = arith.constant 0.0 : f32
  // expected-error @+1 {{expects a 'vector<4xi1>' mask for the maskable operation}}
  %0 = vector.mask %m { vector.transfer_read %mem[%i], %pad : memref<?xf32>, vector<4xf32> } : vector<3xi1> -> vector<4xf32>
  return %0 : vector<4xf32>
}
