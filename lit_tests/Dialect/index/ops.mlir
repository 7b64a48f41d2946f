// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of every index op in upstream MLIR's custom syntax; the same file
// is read by upstream MLIR in tests/test_dialect_index.py.

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%arg0: index, %arg1: index)
func.func @binary(%a: index, %b: index) {
  // CHECK-NEXT: %0 = index.add %arg0, %arg1
  %add = index.add %a, %b
  // CHECK-NEXT: %1 = index.sub %arg0, %arg1
  %sub = index.sub %a, %b
  // CHECK-NEXT: %2 = index.mul %arg0, %arg1
  %mul = index.mul %a, %b
  // CHECK-NEXT: %3 = index.divs %arg0, %arg1
  %divs = index.divs %a, %b
  // CHECK-NEXT: %4 = index.divu %arg0, %arg1
  %divu = index.divu %a, %b
  // CHECK-NEXT: %5 = index.ceildivs %arg0, %arg1
  %ceildivs = index.ceildivs %a, %b
  // CHECK-NEXT: %6 = index.ceildivu %arg0, %arg1
  %ceildivu = index.ceildivu %a, %b
  // CHECK-NEXT: %7 = index.floordivs %arg0, %arg1
  %floordivs = index.floordivs %a, %b
  // CHECK-NEXT: %8 = index.rems %arg0, %arg1
  %rems = index.rems %a, %b
  // CHECK-NEXT: %9 = index.remu %arg0, %arg1
  %remu = index.remu %a, %b
  // CHECK-NEXT: %10 = index.maxs %arg0, %arg1
  %maxs = index.maxs %a, %b
  // CHECK-NEXT: %11 = index.maxu %arg0, %arg1
  %maxu = index.maxu %a, %b
  // CHECK-NEXT: %12 = index.mins %arg0, %arg1
  %mins = index.mins %a, %b
  // CHECK-NEXT: %13 = index.minu %arg0, %arg1
  %minu = index.minu %a, %b
  // CHECK-NEXT: %14 = index.shl %arg0, %arg1
  %shl = index.shl %a, %b
  // CHECK-NEXT: %15 = index.shrs %arg0, %arg1
  %shrs = index.shrs %a, %b
  // CHECK-NEXT: %16 = index.shru %arg0, %arg1
  %shru = index.shru %a, %b
  // CHECK-NEXT: %17 = index.and %arg0, %arg1
  %and = index.and %a, %b
  // CHECK-NEXT: %18 = index.or %arg0, %arg1
  %or = index.or %a, %b
  // CHECK-NEXT: %19 = index.xor %arg0, %arg1
  %xor = index.xor %a, %b
  // Discardable attributes follow the operands.
  // CHECK-NEXT: %20 = index.add %arg0, %arg1 {tag = "x"}
  %attr = index.add %a, %b {tag = "x"}
  return
}

// The predicate is an attribute of its own, usable outside index.cmp.
// CHECK-LABEL: func.func @cmp
// CHECK-SAME: (%arg0: index, %arg1: index) -> i1 attributes {pred = #index<cmp_predicate uge>}
func.func @cmp(%a: index, %b: index) -> i1 attributes {pred = #index<cmp_predicate uge>} {
  // CHECK-NEXT: %0 = index.cmp eq(%arg0, %arg1)
  %eq = index.cmp eq(%a, %b)
  // CHECK-NEXT: %1 = index.cmp ne(%arg0, %arg1)
  %ne = index.cmp ne(%a, %b)
  // CHECK-NEXT: %2 = index.cmp slt(%arg0, %arg1)
  %slt = index.cmp slt(%a, %b)
  // CHECK-NEXT: %3 = index.cmp sle(%arg0, %arg1)
  %sle = index.cmp sle(%a, %b)
  // CHECK-NEXT: %4 = index.cmp sgt(%arg0, %arg1)
  %sgt = index.cmp sgt(%a, %b)
  // CHECK-NEXT: %5 = index.cmp sge(%arg0, %arg1)
  %sge = index.cmp sge(%a, %b)
  // CHECK-NEXT: %6 = index.cmp ult(%arg0, %arg1)
  %ult = index.cmp ult(%a, %b)
  // CHECK-NEXT: %7 = index.cmp ule(%arg0, %arg1)
  %ule = index.cmp ule(%a, %b)
  // CHECK-NEXT: %8 = index.cmp ugt(%arg0, %arg1)
  %ugt = index.cmp ugt(%a, %b)
  // CHECK-NEXT: %9 = index.cmp uge(%arg0, %arg1)
  %uge = index.cmp uge(%a, %b)
  // CHECK-NEXT: %10 = index.cmp slt(%arg0, %arg1) {tag}
  %tagged = index.cmp slt(%a, %b) {tag}
  return %slt : i1
}

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%arg0: index, %arg1: i32, %arg2: i64, %arg3: si16, %arg4: ui8)
func.func @casts(%a: index, %i: i32, %j: i64, %s: si16, %u: ui8) {
  // CHECK-NEXT: %0 = index.casts %arg0 : index to i32
  %s32 = index.casts %a : index to i32
  // CHECK-NEXT: %1 = index.casts %arg0 : index to i1
  %s1 = index.casts %a : index to i1
  // CHECK-NEXT: %2 = index.casts %arg2 : i64 to index
  %sidx = index.casts %j : i64 to index
  // CHECK-NEXT: %3 = index.casts %arg3 : si16 to index
  %ssi = index.casts %s : si16 to index
  // CHECK-NEXT: %4 = index.castu %arg0 : index to i64
  %u64 = index.castu %a : index to i64
  // CHECK-NEXT: %5 = index.castu %arg1 : i32 to index
  %uidx = index.castu %i : i32 to index
  // CHECK-NEXT: %6 = index.castu %arg4 : ui8 to index
  %uui = index.castu %u : ui8 to index
  // CHECK-NEXT: %7 = index.castu %arg0 {tag} : index to i16
  %tagged = index.castu %a {tag} : index to i16
  return
}

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK-NEXT: %idx42 = index.constant 42
  %c42 = index.constant 42
  // CHECK-NEXT: %idx-7 = index.constant -7
  %neg = index.constant -7
  // CHECK-NEXT: %idx9223372036854775807 = index.constant 9223372036854775807
  %max = index.constant 9223372036854775807
  // CHECK-NEXT: %idx-9223372036854775808 = index.constant -9223372036854775808
  %min = index.constant -9223372036854775808
  // Upstream prints the attribute dictionary before the value.
  // CHECK-NEXT: %idx1 = index.constant {tag} 1
  %tagged = index.constant {tag} 1
  // An inherent attribute written in the attribute dictionary wins, as upstream.
  // CHECK-NEXT: %idx5 = index.constant 5
  %five = index.constant {value = 5 : index} 3
  // CHECK-NEXT: %true = index.bool.constant true
  %t = index.bool.constant true
  // CHECK-NEXT: %false = index.bool.constant false
  %f = index.bool.constant false
  // CHECK-NEXT: %true_0 = index.bool.constant {tag} true
  %btag = index.bool.constant {tag} true
  // CHECK-NEXT: %0 = index.sizeof
  %size = index.sizeof
  // CHECK-NEXT: %1 = index.sizeof {tag}
  %stag = index.sizeof {tag}
  return
}
