// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of every math op in upstream MLIR's custom syntax; the same file
// is read by upstream MLIR in tests/test_dialect_math.py.

// CHECK-LABEL: func.func @float_unary
// CHECK-SAME: (%[[X:.*]]: f32, %[[V:.*]]: vector<4xf64>, %[[T:.*]]: tensor<?x3xf16>)
func.func @float_unary(%x: f32, %v: vector<4xf64>, %t: tensor<?x3xf16>) {
  // CHECK-NEXT: math.absf %[[X]] : f32
  %0 = math.absf %x : f32
  // CHECK-NEXT: math.acos %[[V]] fastmath<nnan> : vector<4xf64>
  %1 = math.acos %v fastmath<nnan> : vector<4xf64>
  // CHECK-NEXT: math.acosh %[[X]] : f32
  %2 = math.acosh %x : f32
  // CHECK-NEXT: math.asin %[[T]] : tensor<?x3xf16>
  %3 = math.asin %t : tensor<?x3xf16>
  // CHECK-NEXT: math.asinh %[[X]] fastmath<fast> : f32
  %4 = math.asinh %x fastmath<fast> : f32
  // CHECK-NEXT: math.atan %[[X]] : f32
  %5 = math.atan %x : f32
  // CHECK-NEXT: math.atanh %[[X]] : f32
  %6 = math.atanh %x : f32
  // CHECK-NEXT: math.cbrt %[[V]] : vector<4xf64>
  %7 = math.cbrt %v : vector<4xf64>
  // CHECK-NEXT: math.ceil %[[X]] : f32
  %8 = math.ceil %x : f32
  // CHECK-NEXT: math.cos %[[X]] fastmath<afn> : f32
  %9 = math.cos %x fastmath<afn> : f32
  // CHECK-NEXT: math.cosh %[[X]] : f32
  %10 = math.cosh %x : f32
  // CHECK-NEXT: math.erf %[[X]] : f32
  %11 = math.erf %x : f32
  // CHECK-NEXT: math.erfc %[[X]] : f32
  %12 = math.erfc %x : f32
  // CHECK-NEXT: math.erfc %[[T]] fastmath<nnan,ninf> : tensor<?x3xf16>
  %13 = math.erfc %t fastmath<nnan,ninf> : tensor<?x3xf16>
  // CHECK-NEXT: math.exp %[[X]] : f32
  %14 = math.exp %x : f32
  // CHECK-NEXT: math.exp2 %[[V]] : vector<4xf64>
  %15 = math.exp2 %v : vector<4xf64>
  // CHECK-NEXT: math.expm1 %[[X]] : f32
  %16 = math.expm1 %x : f32
  // CHECK-NEXT: math.floor %[[X]] : f32
  %17 = math.floor %x : f32
  // CHECK-NEXT: math.log %[[X]] : f32
  %18 = math.log %x : f32
  // CHECK-NEXT: math.log10 %[[X]] : f32
  %19 = math.log10 %x : f32
  // CHECK-NEXT: math.log1p %[[X]] : f32
  %20 = math.log1p %x : f32
  // CHECK-NEXT: math.log2 %[[X]] : f32
  %21 = math.log2 %x : f32
  // CHECK-NEXT: math.round %[[X]] : f32
  %22 = math.round %x : f32
  // CHECK-NEXT: math.roundeven %[[X]] : f32
  %23 = math.roundeven %x : f32
  // CHECK-NEXT: math.rsqrt %[[X]] : f32
  %24 = math.rsqrt %x : f32
  // CHECK-NEXT: math.sin %[[X]] {tag} : f32
  %25 = math.sin %x {tag} : f32
  // CHECK-NEXT: math.sinh %[[X]] : f32
  %26 = math.sinh %x : f32
  // CHECK-NEXT: math.sqrt %[[V]] fastmath<contract> : vector<4xf64>
  %27 = math.sqrt %v fastmath<contract> : vector<4xf64>
  // CHECK-NEXT: math.tan %[[X]] : f32
  %28 = math.tan %x : f32
  // CHECK-NEXT: math.tanh %[[X]] : f32
  %29 = math.tanh %x : f32
  // CHECK-NEXT: math.trunc %[[X]] : f32
  %30 = math.trunc %x : f32
  return
}

// CHECK-LABEL: func.func @float_multi_operand
// CHECK-SAME: (%[[A:.*]]: f64, %[[B:.*]]: f64, %[[V:.*]]: vector<2xf32>, %[[N:.*]]: i32)
func.func @float_multi_operand(%a: f64, %b: f64, %v: vector<2xf32>, %n: i32) {
  // CHECK-NEXT: math.atan2 %[[A]], %[[B]] : f64
  %0 = math.atan2 %a, %b : f64
  // CHECK-NEXT: math.copysign %[[A]], %[[B]] fastmath<nsz> : f64
  %1 = math.copysign %a, %b fastmath<nsz> : f64
  // CHECK-NEXT: math.powf %[[V]], %[[V]] : vector<2xf32>
  %2 = math.powf %v, %v : vector<2xf32>
  // CHECK-NEXT: math.fma %[[A]], %[[B]], %[[A]] fastmath<fast> : f64
  %3 = math.fma %a, %b, %a fastmath<fast> : f64
  // CHECK-NEXT: math.fpowi %[[A]], %[[N]] : f64, i32
  %4 = math.fpowi %a, %n : f64, i32
  return
}

// CHECK-LABEL: func.func @integer
// CHECK-SAME: (%[[I:.*]]: i32, %[[V:.*]]: vector<3xi8>, %[[X:.*]]: index)
func.func @integer(%i: i32, %v: vector<3xi8>, %x: index) {
  // CHECK-NEXT: math.absi %[[I]] : i32
  %0 = math.absi %i : i32
  // CHECK-NEXT: math.ctlz %[[V]] : vector<3xi8>
  %1 = math.ctlz %v : vector<3xi8>
  // CHECK-NEXT: math.cttz %[[I]] : i32
  %2 = math.cttz %i : i32
  // CHECK-NEXT: math.ctpop %[[X]] : index
  %3 = math.ctpop %x : index
  // CHECK-NEXT: math.ipowi %[[I]], %[[I]] : i32
  %4 = math.ipowi %i, %i : i32
  return
}

// sincos has two results of its operand's type, named as upstream names them.
// CHECK-LABEL: func.func @sincos
// CHECK-SAME: (%[[X:.*]]: f32, %[[V:.*]]: vector<8xf16>, %[[T:.*]]: tensor<*xbf16>)
func.func @sincos(%x: f32, %v: vector<8xf16>, %t: tensor<*xbf16>) -> (f32, f32) {
  // CHECK-NEXT: %[[S:sin.*]], %[[C:cos.*]] = math.sincos %[[X]] : f32
  %s, %c = math.sincos %x : f32
  // CHECK-NEXT: math.sincos %[[V]] fastmath<afn> : vector<8xf16>
  %s1, %c1 = math.sincos %v fastmath<afn> : vector<8xf16>
  // CHECK-NEXT: math.sincos %[[T]] fastmath<nnan,ninf> {note = "both"} : tensor<*xbf16>
  %s2, %c2 = math.sincos %t fastmath<nnan,ninf> {note = "both"} : tensor<*xbf16>
  // CHECK-NEXT: return %[[C]], %[[S]] : f32, f32
  return %c, %s : f32, f32
}

// clampf names its bounds in brackets after `to`.
// CHECK-LABEL: func.func @clampf
// CHECK-SAME: (%[[X:.*]]: f64, %[[LO:.*]]: f64, %[[HI:.*]]: f64, %[[T:.*]]: tensor<4x?xf32>)
func.func @clampf(%x: f64, %lo: f64, %hi: f64, %t: tensor<4x?xf32>) {
  // CHECK-NEXT: math.clampf %[[X]] to [%[[LO]], %[[HI]]] : f64
  %0 = math.clampf %x to [%lo, %hi] : f64
  // CHECK-NEXT: math.clampf %[[X]] to [%[[HI]], %[[HI]]] fastmath<fast> : f64
  %1 = math.clampf %x to [%hi, %hi] fastmath<fast> : f64
  // CHECK-NEXT: math.clampf %[[T]] to [%[[T]], %[[T]]] {tag} : tensor<4x?xf32>
  %2 = math.clampf %t to [%t, %t] {tag} : tensor<4x?xf32>
  return
}

// The classification ops give i1 shaped like the operand. Their syntax has no
// `fastmath` keyword: flags other than `none` go in the attribute dictionary,
// sorted with the other attributes.
// CHECK-LABEL: func.func @classification
// CHECK-SAME: (%[[X:.*]]: f32, %[[V:.*]]: vector<[4]xf64>, %[[T:.*]]: tensor<2x?xf16>, %[[U:.*]]: tensor<*xf32>)
func.func @classification(%x: f32, %v: vector<[4]xf64>, %t: tensor<2x?xf16>, %u: tensor<*xf32>)
    -> (i1, vector<[4]xi1>, tensor<2x?xi1>, tensor<*xi1>) {
  // CHECK-NEXT: %[[F:.*]] = math.isfinite %[[X]] : f32
  %f = math.isfinite %x : f32
  // CHECK-NEXT: %[[I:.*]] = math.isinf %[[V]] {fastmath = #arith.fastmath<ninf>} : vector<[4]xf64>
  %i = math.isinf %v {fastmath = #arith.fastmath<ninf>} : vector<[4]xf64>
  // CHECK-NEXT: %[[N:.*]] = math.isnan %[[T]] {alpha, fastmath = #arith.fastmath<nnan>, omega} : tensor<2x?xf16>
  %n = math.isnan %t {omega, fastmath = #arith.fastmath<nnan>, alpha} : tensor<2x?xf16>
  // CHECK-NEXT: %[[M:.*]] = math.isnormal %[[U]] : tensor<*xf32>
  %m = math.isnormal %u {fastmath = #arith.fastmath<none>} : tensor<*xf32>
  // CHECK-NEXT: math.isnan %[[X]] : f32
  %unused = math.isnan %x : f32
  // CHECK-NEXT: return %[[F]], %[[I]], %[[N]], %[[M]] : i1, vector<[4]xi1>, tensor<2x?xi1>, tensor<*xi1>
  return %f, %i, %n, %m : i1, vector<[4]xi1>, tensor<2x?xi1>, tensor<*xi1>
}
