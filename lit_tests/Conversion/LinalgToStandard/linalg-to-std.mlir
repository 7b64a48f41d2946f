// convert-linalg-to-std: a linalg op on buffers becomes a call of the
// library function named after it and its operand types; memref operands
// are cast to fully dynamic strided layouts first, and the function is
// declared once, private, with llvm.emit_c_interface.
// RUN: mlkit-opt %s --split-input-file -convert-linalg-to-std | filecheck %s

// CHECK-LABEL: module {
// CHECK-NEXT:    func.func private @linalg_matmul_viewsxsxf32_viewsxsxf32_viewsxsxf32(memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>, memref<?x?xf32, strided<[?, ?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-NOT:     func.func private
// CHECK-LABEL:   func.func @matmul_twice
// CHECK-SAME:      (%[[A:.*]]: memref<?x?xf32>, %[[B:.*]]: memref<?x?xf32>, %[[C:.*]]: memref<?x?xf32>)
// CHECK-NEXT:      %[[CA:.*]] = memref.cast %[[A]] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:      %[[CB:.*]] = memref.cast %[[B]] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:      %[[CC:.*]] = memref.cast %[[C]] : memref<?x?xf32> to memref<?x?xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:      call @linalg_matmul_viewsxsxf32_viewsxsxf32_viewsxsxf32(%[[CA]], %[[CB]], %[[CC]])
// CHECK-NEXT:      memref.cast
// CHECK-NEXT:      memref.cast
// CHECK-NEXT:      memref.cast
// CHECK-NEXT:      call @linalg_matmul_viewsxsxf32_viewsxsxf32_viewsxsxf32
// CHECK-NOT:       linalg.
func.func @matmul_twice(%a: memref<?x?xf32>, %b: memref<?x?xf32>, %c: memref<?x?xf32>) {
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  linalg.matmul ins(%a, %b : memref<?x?xf32>, memref<?x?xf32>) outs(%c : memref<?x?xf32>)
  return
}

// -----

// Static sizes stay in the name and the type; a scalar operand is passed as
// it is; a rank-0 memref gets an offset-only layout.

// CHECK-LABEL: module {
// CHECK:       func.func private @linalg_fill_f32_view4x8xf32(f32, memref<4x8xf32, strided<[?, ?], offset: ?>>)
// CHECK:       func.func private @linalg_dot_view16xf64_view16xf64_viewf64(memref<16xf64, strided<[?], offset: ?>>, memref<16xf64, strided<[?], offset: ?>>, memref<f64, strided<[], offset: ?>>)
// CHECK-LABEL: func.func @static_and_scalar
// CHECK-SAME:    (%[[M:.*]]: memref<4x8xf32, strided<[16, 1], offset: 3>>, %[[X:.*]]: f32,
// CHECK:         %[[CM:.*]] = memref.cast %[[M]] : memref<4x8xf32, strided<[16, 1], offset: 3>> to memref<4x8xf32, strided<[?, ?], offset: ?>>
// CHECK-NEXT:    call @linalg_fill_f32_view4x8xf32(%[[X]], %[[CM]]) : (f32, memref<4x8xf32, strided<[?, ?], offset: ?>>) -> ()
// CHECK:         memref.cast %{{.*}} : memref<f64> to memref<f64, strided<[], offset: ?>>
// CHECK-NEXT:    call @linalg_dot_view16xf64_view16xf64_viewf64(
func.func @static_and_scalar(%m: memref<4x8xf32, strided<[16, 1], offset: 3>>, %x: f32,
                             %u: memref<16xf64>, %v: memref<16xf64>, %s: memref<f64>) {
  linalg.fill ins(%x : f32) outs(%m : memref<4x8xf32, strided<[16, 1], offset: 3>>)
  linalg.dot ins(%u, %v : memref<16xf64>, memref<16xf64>) outs(%s : memref<f64>)
  return
}

// -----

// linalg.generic calls its library_call; without one, and for linalg.map
// and the other ops upstream gives no name, the placeholder upstream uses.

// CHECK-LABEL: module {
// CHECK-DAG:   func.func private @my_copy(memref<8xi32, strided<[?], offset: ?>>, memref<8xi32, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-DAG:   func.func private @op_has_no_registered_library_name(memref<8xi32, strided<[?], offset: ?>>, memref<8xi32, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-LABEL: func.func @generic
// CHECK:         call @my_copy(
// CHECK:         call @op_has_no_registered_library_name(
// CHECK:         call @op_has_no_registered_library_name(
#id = affine_map<(d0) -> (d0)>
func.func @generic(%a: memref<8xi32>, %b: memref<8xi32>) {
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"], library_call = "my_copy"}
      ins(%a : memref<8xi32>) outs(%b : memref<8xi32>) {
  ^bb0(%x: i32, %y: i32):
    linalg.yield %x : i32
  }
  linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : memref<8xi32>) outs(%b : memref<8xi32>) {
  ^bb0(%x: i32, %y: i32):
    linalg.yield %x : i32
  }
  linalg.map ins(%a : memref<8xi32>) outs(%b : memref<8xi32>)
    (%x: i32, %y: i32) {
      linalg.yield %x : i32
    }
  return
}

// -----

// Vector elements, index elements and integer memory spaces are mangled too.

// CHECK-LABEL: module {
// CHECK-DAG:   func.func private @linalg_copy_viewsx4xvector4i1_viewsx4xvector4i1(memref<?x4xvector<4xi1>, strided<[?, ?], offset: ?>>, memref<?x4xvector<4xi1>, strided<[?, ?], offset: ?>>)
// CHECK-DAG:   func.func private @linalg_copy_view4xindex_view4xindex(
// CHECK-DAG:   func.func private @linalg_add_view2xi8as3_view2xi8as3_view2xi8as3(memref<2xi8, strided<[?], offset: ?>, 3{{.*}}>,
func.func @mangling(%v: memref<?x4xvector<4xi1>>, %i: memref<4xindex>, %s: memref<2xi8, 3>) {
  linalg.copy ins(%v : memref<?x4xvector<4xi1>>) outs(%v : memref<?x4xvector<4xi1>>)
  linalg.copy ins(%i : memref<4xindex>) outs(%i : memref<4xindex>)
  linalg.add ins(%s, %s : memref<2xi8, 3>, memref<2xi8, 3>) outs(%s : memref<2xi8, 3>)
  return
}

// -----

// A symbol of the function's name is used as it is; new declarations go
// before the module's last op. Ops inside loops are converted in place.

// CHECK-LABEL: module {
// CHECK-NEXT:    func.func private @linalg_copy_view4xf32_view4xf32(memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>)
// CHECK-NEXT:    func.func @loops
// CHECK:           scf.for
// CHECK-NEXT:        memref.cast
// CHECK-NEXT:        memref.cast
// CHECK-NEXT:        call @linalg_copy_view4xf32_view4xf32(
// CHECK:           affine.for
// CHECK-NEXT:        memref.cast
// CHECK-NEXT:        memref.cast
// CHECK-NEXT:        call @linalg_exp_view4xf32_view4xf32(
// CHECK:         func.func private @linalg_exp_view4xf32_view4xf32(memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>) attributes {llvm.emit_c_interface}
// CHECK-NEXT:    func.func @last
func.func private @linalg_copy_view4xf32_view4xf32(memref<4xf32, strided<[?], offset: ?>>, memref<4xf32, strided<[?], offset: ?>>)
func.func @loops(%a: memref<4xf32>, %b: memref<4xf32>, %n: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  scf.for %i = %c0 to %n step %c1 {
    linalg.copy ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  }
  affine.for %i = 0 to 3 {
    linalg.exp ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  }
  return
}
func.func @last() {
  return
}
