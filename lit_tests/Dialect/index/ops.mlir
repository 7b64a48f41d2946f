// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of every index op in upstream MLIR's custom syntax; the same file
// is read by upstream MLIR in tests/test_dialect_index.py.

// CHECK-LABEL: func.func @binary
// CHECK-SAME: (%a: index, %b: index)
func.func @binary(%a: index, %b: index) {
  // CHECK-NEXT: %add = index.add %a, %b
  %add = index.add %a, %b
  // CHECK-NEXT: %sub = index.sub %a, %b
  %sub = index.sub %a, %b
  // CHECK-NEXT: %mul = index.mul %a, %b
  %mul = index.mul %a, %b
  // CHECK-NEXT: %divs = index.divs %a, %b
  %divs = index.divs %a, %b
  // CHECK-NEXT: %divu = index.divu %a, %b
  %divu = index.divu %a, %b
  // CHECK-NEXT: %ceildivs = index.ceildivs %a, %b
  %ceildivs = index.ceildivs %a, %b
  // CHECK-NEXT: %ceildivu = index.ceildivu %a, %b
  %ceildivu = index.ceildivu %a, %b
  // CHECK-NEXT: %floordivs = index.floordivs %a, %b
  %floordivs = index.floordivs %a, %b
  // CHECK-NEXT: %rems = index.rems %a, %b
  %rems = index.rems %a, %b
  // CHECK-NEXT: %remu = index.remu %a, %b
  %remu = index.remu %a, %b
  // CHECK-NEXT: %maxs = index.maxs %a, %b
  %maxs = index.maxs %a, %b
  // CHECK-NEXT: %maxu = index.maxu %a, %b
  %maxu = index.maxu %a, %b
  // CHECK-NEXT: %mins = index.mins %a, %b
  %mins = index.mins %a, %b
  // CHECK-NEXT: %minu = index.minu %a, %b
  %minu = index.minu %a, %b
  // CHECK-NEXT: %shl = index.shl %a, %b
  %shl = index.shl %a, %b
  // CHECK-NEXT: %shrs = index.shrs %a, %b
  %shrs = index.shrs %a, %b
  // CHECK-NEXT: %shru = index.shru %a, %b
  %shru = index.shru %a, %b
  // CHECK-NEXT: %and = index.and %a, %b
  %and = index.and %a, %b
  // CHECK-NEXT: %or = index.or %a, %b
  %or = index.or %a, %b
  // CHECK-NEXT: %xor = index.xor %a, %b
  %xor = index.xor %a, %b
  // Discardable attributes follow the operands.
  // CHECK-NEXT: %attr = index.add %a, %b {tag = "x"}
  %attr = index.add %a, %b {tag = "x"}
  return
}

// The predicate is an attribute of its own, usable outside index.cmp.
// CHECK-LABEL: func.func @cmp
// CHECK-SAME: (%a: index, %b: index) -> i1 attributes {pred = #index<cmp_predicate uge>}
func.func @cmp(%a: index, %b: index) -> i1 attributes {pred = #index<cmp_predicate uge>} {
  // CHECK-NEXT: %eq = index.cmp eq(%a, %b)
  %eq = index.cmp eq(%a, %b)
  // CHECK-NEXT: %ne = index.cmp ne(%a, %b)
  %ne = index.cmp ne(%a, %b)
  // CHECK-NEXT: %slt = index.cmp slt(%a, %b)
  %slt = index.cmp slt(%a, %b)
  // CHECK-NEXT: %sle = index.cmp sle(%a, %b)
  %sle = index.cmp sle(%a, %b)
  // CHECK-NEXT: %sgt = index.cmp sgt(%a, %b)
  %sgt = index.cmp sgt(%a, %b)
  // CHECK-NEXT: %sge = index.cmp sge(%a, %b)
  %sge = index.cmp sge(%a, %b)
  // CHECK-NEXT: %ult = index.cmp ult(%a, %b)
  %ult = index.cmp ult(%a, %b)
  // CHECK-NEXT: %ule = index.cmp ule(%a, %b)
  %ule = index.cmp ule(%a, %b)
  // CHECK-NEXT: %ugt = index.cmp ugt(%a, %b)
  %ugt = index.cmp ugt(%a, %b)
  // CHECK-NEXT: %uge = index.cmp uge(%a, %b)
  %uge = index.cmp uge(%a, %b)
  // CHECK-NEXT: %tagged = index.cmp slt(%a, %b) {tag}
  %tagged = index.cmp slt(%a, %b) {tag}
  return %slt : i1
}

// CHECK-LABEL: func.func @casts
// CHECK-SAME: (%a: index, %i: i32, %j: i64, %s: si16, %u: ui8)
func.func @casts(%a: index, %i: i32, %j: i64, %s: si16, %u: ui8) {
  // CHECK-NEXT: %s32 = index.casts %a : index to i32
  %s32 = index.casts %a : index to i32
  // CHECK-NEXT: %s1 = index.casts %a : index to i1
  %s1 = index.casts %a : index to i1
  // CHECK-NEXT: %sidx = index.casts %j : i64 to index
  %sidx = index.casts %j : i64 to index
  // CHECK-NEXT: %ssi = index.casts %s : si16 to index
  %ssi = index.casts %s : si16 to index
  // CHECK-NEXT: %u64 = index.castu %a : index to i64
  %u64 = index.castu %a : index to i64
  // CHECK-NEXT: %uidx = index.castu %i : i32 to index
  %uidx = index.castu %i : i32 to index
  // CHECK-NEXT: %uui = index.castu %u : ui8 to index
  %uui = index.castu %u : ui8 to index
  // CHECK-NEXT: %tagged = index.castu %a {tag} : index to i16
  %tagged = index.castu %a {tag} : index to i16
  return
}

// CHECK-LABEL: func.func @constants
func.func @constants() {
  // CHECK-NEXT: %c42 = index.constant 42
  %c42 = index.constant 42
  // CHECK-NEXT: %neg = index.constant -7
  %neg = index.constant -7
  // CHECK-NEXT: %max = index.constant 9223372036854775807
  %max = index.constant 9223372036854775807
  // CHECK-NEXT: %min = index.constant -9223372036854775808
  %min = index.constant -9223372036854775808
  // Upstream prints the attribute dictionary before the value.
  // CHECK-NEXT: %tagged = index.constant {tag} 1
  %tagged = index.constant {tag} 1
  // An inherent attribute written in the attribute dictionary wins, as upstream.
  // CHECK-NEXT: %five = index.constant 5
  %five = index.constant {value = 5 : index} 3
  // CHECK-NEXT: %t = index.bool.constant true
  %t = index.bool.constant true
  // CHECK-NEXT: %f = index.bool.constant false
  %f = index.bool.constant false
  // CHECK-NEXT: %btag = index.bool.constant {tag} true
  %btag = index.bool.constant {tag} true
  // CHECK-NEXT: %size = index.sizeof
  %size = index.sizeof
  // CHECK-NEXT: %stag = index.sizeof {tag}
  %stag = index.sizeof {tag}
  return
}
