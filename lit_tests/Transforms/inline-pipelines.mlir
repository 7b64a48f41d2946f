// RUN: mlkit-opt %s -split-input-file -inline | filecheck %s --check-prefix=DEFAULT
// RUN: mlkit-opt %s -split-input-file -inline='op-pipelines=func.func(canonicalize,cse)' | filecheck %s --check-prefix=OPPIPE
// RUN: mlkit-opt %s -split-input-file -inline='default-pipeline=cse' | filecheck %s --check-prefix=CSE
// RUN: mlkit-opt %s -split-input-file -inline='inlining-threshold=0' | filecheck %s --check-prefix=NONE

// The optimizer pipeline run on each function around inlining: the
// callable's own from op-pipelines, else default-pipeline (canonicalize);
// with inlining-threshold=0 nothing is inlined.

// DEFAULT-LABEL: func.func @caller
// DEFAULT-COUNT-2: arith.muli
// OPPIPE-LABEL: func.func @caller
// OPPIPE-COUNT-1: arith.muli
// OPPIPE-NOT: arith.muli
// CSE-LABEL: func.func @caller
// CSE-COUNT-1: arith.muli
// CSE-NOT: arith.muli
// NONE-LABEL: func.func @caller
// NONE: call @square
// NONE: call @square
func.func private @square(%a: i32) -> i32 {
  %0 = arith.muli %a, %a : i32
  return %0 : i32
}
func.func @caller(%a: i32) -> i32 {
  %0 = call @square(%a) : (i32) -> i32
  %1 = call @square(%a) : (i32) -> i32
  %2 = arith.addi %0, %1 : i32
  return %2 : i32
}

// -----

// no_inline on the call or on the callee keeps the call.
// DEFAULT-LABEL: func.func @no_inline
// DEFAULT-NEXT: call @callee(%{{.*}}) {no_inline}
// DEFAULT-NEXT: call @marked(%{{.*}})
func.func private @callee(%a: i32) -> i32 {
  return %a : i32
}
func.func private @marked(%a: i32) -> i32 attributes {no_inline} {
  return %a : i32
}
func.func @no_inline(%a: i32) -> i32 {
  %0 = call @callee(%a) {no_inline} : (i32) -> i32
  %1 = call @marked(%0) : (i32) -> i32
  return %1 : i32
}

// -----

// The default pipeline turns a call through a constant function into a
// direct call, which is then inlined.
// DEFAULT-LABEL: func.func @indirect
// DEFAULT-NEXT: %[[C:.*]] = arith.constant 7 : i32
// DEFAULT-NEXT: return %[[C]] : i32
func.func private @seven() -> i32 {
  %c = arith.constant 7 : i32
  return %c : i32
}
func.func @indirect() -> i32 {
  %f = constant @seven : () -> i32
  %r = call_indirect %f() : () -> i32
  return %r : i32
}

// -----

// gpu ops inline, as upstream's gpu inliner interface allows.
// DEFAULT-LABEL: func.func @gpu_caller
// DEFAULT-NEXT: gpu.alloc
func.func private @gpu_alloc() -> memref<4xf32> {
  %m = gpu.alloc () : memref<4xf32>
  return %m : memref<4xf32>
}
func.func @gpu_caller() -> memref<4xf32> {
  %m = call @gpu_alloc() : () -> memref<4xf32>
  return %m : memref<4xf32>
}
