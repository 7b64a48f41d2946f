// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of the func ops in upstream MLIR's custom syntax; the same file is
// read by upstream MLIR in tests/test_dialect_func.py.

// A declaration without results prints no `-> ()`.
// CHECK: func.func private @print(memref<*xf32>){{$}}
func.func private @print(memref<*xf32>)
// CHECK: func.func private @pair(i32) -> (i32, f32) attributes {llvm.emit_c_interface}
func.func private @pair(i32) -> (i32, f32) attributes {llvm.emit_c_interface}
// Argument and result attributes of declarations are kept.
// CHECK: func.func nested @decl_attrs(i32 {llvm.noundef}, f32) -> (i32 {llvm.noundef})
func.func nested @decl_attrs(i32 {llvm.noundef}, f32) -> (i32 {llvm.noundef})
// CHECK: func.func private @fn_result() -> ((i32) -> i32)
func.func private @fn_result() -> ((i32) -> i32)
// CHECK: func.func private @empty_results(){{$}}
func.func private @empty_results() -> ()

// CHECK-LABEL: func.func @calls
// CHECK-SAME: (%[[A:.*]]: i32 {llvm.noundef}, %[[B:.*]]: f32, %[[U:.*]]: memref<*xf32>) -> (i32 {llvm.noundef}, f32) attributes {foo = "bar"}
func.func @calls(%a: i32 {llvm.noundef}, %b: f32, %u: memref<*xf32>) -> (i32 {llvm.noundef}, f32) attributes {foo = "bar"} {
  // CHECK-NEXT: %{{.*}}:2 = call @pair(%[[A]]) : (i32) -> (i32, f32)
  %0:2 = call @pair(%a) : (i32) -> (i32, f32)
  // CHECK-NEXT: %{{.*}}:2 = call @pair(%[[A]]) {no_inline} : (i32) -> (i32, f32)
  %1:2 = func.call @pair(%a) {no_inline} : (i32) -> (i32, f32)
  // CHECK-NEXT: call @print(%[[U]]) : (memref<*xf32>) -> ()
  call @print(%u) : (memref<*xf32>) -> ()
  // CHECK-NEXT: return %[[A]], %[[B]] : i32, f32
  return %a, %b : i32, f32
}

// CHECK-LABEL: func.func @indirect
// CHECK-SAME: (%[[U:.*]]: memref<*xf32>, %[[X:.*]]: i32)
func.func @indirect(%u: memref<*xf32>, %x: i32) -> i32 {
  // CHECK-NEXT: %[[F:.*]] = constant @print : (memref<*xf32>) -> ()
  %f = constant @print : (memref<*xf32>) -> ()
  // CHECK-NEXT: call_indirect %[[F]](%[[U]]) : (memref<*xf32>) -> ()
  call_indirect %f(%u) : (memref<*xf32>) -> ()
  // CHECK-NEXT: %[[G:.*]] = constant @indirect : (memref<*xf32>, i32) -> i32
  %g = func.constant @indirect : (memref<*xf32>, i32) -> i32
  // CHECK-NEXT: %[[R:.*]] = call_indirect %[[G]](%[[U]], %[[X]]) : (memref<*xf32>, i32) -> i32
  %r = func.call_indirect %g(%u, %x) : (memref<*xf32>, i32) -> i32
  // CHECK-NEXT: return %[[R]] : i32
  return %r : i32
}

// CHECK-LABEL: func.func @no_args()
// CHECK-NEXT: return
func.func @no_args() {
  return
}

// CHECK-LABEL: func.func @single_result_attrs
// CHECK-SAME: -> (i32 {llvm.noundef})
func.func @single_result_attrs(%x: i32) -> (i32 {llvm.noundef}) {
  return %x : i32
}

// CHECK-LABEL: func.func @multi_block
func.func @multi_block(%c: i1, %x: i32) -> i32 {
  // CHECK-NEXT: cf.cond_br
  cf.cond_br %c, ^bb1(%x : i32), ^bb1(%x : i32)
// CHECK: ^bb1(%[[Y:.*]]: i32):
^bb1(%y: i32):
  // CHECK-NEXT: return %[[Y]] : i32
  return %y : i32
}

// A function without arguments may label its entry block.
// CHECK-LABEL: func.func @entry_label()
// CHECK-NEXT: return
func.func @entry_label() {
^bb0:
  return
}
