// Integer arith on i32 inputs passed from the caller as memrefs, results
// returned through an out-parameter (a C-interface entry point); a linalg.generic
// with several results, rank-reducing insert_slice, i64 and index arithmetic.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define {{.*}} @ops(
// CHECK: sdiv {{(<[0-9]+ x )?}}i32
// CHECK: srem {{(<[0-9]+ x )?}}i32
// CHECK: shl {{(<[0-9]+ x )?}}i32
// CHECK: ashr {{(<[0-9]+ x )?}}i32
// CHECK-LABEL: define void @_mlir_ciface_main(ptr %0, ptr %1, ptr %2, ptr %3)

#id = affine_map<(i) -> (i)>
func.func @ops(%a: tensor<8xi32>, %b: tensor<8xi32>) -> tensor<8x8xi32> {
  %e = tensor.empty() : tensor<8xi32>
  %r:8 = linalg.generic {indexing_maps = [#id, #id, #id, #id, #id, #id, #id, #id, #id, #id], iterator_types = ["parallel"]}
      ins(%a, %b : tensor<8xi32>, tensor<8xi32>)
      outs(%e, %e, %e, %e, %e, %e, %e, %e : tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>) {
  ^bb0(%x: i32, %y: i32, %o0: i32, %o1: i32, %o2: i32, %o3: i32, %o4: i32, %o5: i32, %o6: i32, %o7: i32):
    %seven = arith.constant 7 : i32
    %add = arith.addi %x, %y : i32
    %sub = arith.subi %x, %y : i32
    %mul = arith.muli %x, %y : i32
    %div = arith.divsi %x, %y : i32
    %rem = arith.remsi %x, %y : i32
    %sh = arith.andi %y, %seven : i32
    %shl = arith.shli %x, %sh : i32
    %shr = arith.shrsi %x, %sh : i32
    %lt = arith.cmpi slt, %x, %y : i32
    %two = arith.constant 2 : i32
    %x2 = arith.muli %x, %two : i32
    %xo = arith.xori %y, %seven : i32
    %sel = arith.select %lt, %x2, %xo : i32
    linalg.yield %add, %sub, %mul, %div, %rem, %shl, %shr, %sel : i32, i32, i32, i32, i32, i32, i32, i32
  } -> (tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>, tensor<8xi32>)
  %z = tensor.empty() : tensor<8x8xi32>
  %t0 = tensor.insert_slice %r#0 into %z[0, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t1 = tensor.insert_slice %r#1 into %t0[1, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t2 = tensor.insert_slice %r#2 into %t1[2, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t3 = tensor.insert_slice %r#3 into %t2[3, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t4 = tensor.insert_slice %r#4 into %t3[4, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t5 = tensor.insert_slice %r#5 into %t4[5, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t6 = tensor.insert_slice %r#6 into %t5[6, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  %t7 = tensor.insert_slice %r#7 into %t6[7, 0] [1, 8] [1, 1] : tensor<8xi32> into tensor<8x8xi32>
  return %t7 : tensor<8x8xi32>
}

// out2[i] = floordiv(a[i] * 3 (as i64), 4) + ceildiv(a[i], 3) (as index)
func.func @wide(%a: tensor<8xi32>) -> tensor<8xi64> {
  %e = tensor.empty() : tensor<8xi64>
  %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel"]}
      ins(%a : tensor<8xi32>) outs(%e : tensor<8xi64>) {
  ^bb0(%x: i32, %o: i64):
    %w = arith.extsi %x : i32 to i64
    %c3 = arith.constant 3 : i64
    %c4 = arith.constant 4 : i64
    %m = arith.muli %w, %c3 : i64
    %fd = arith.floordivsi %m, %c4 : i64
    %xi = arith.index_cast %x : i32 to index
    %c3i = arith.constant 3 : index
    %cd = arith.ceildivsi %xi, %c3i : index
    %cdw = arith.index_cast %cd : index to i64
    %s = arith.addi %fd, %cdw : i64
    linalg.yield %s : i64
  } -> tensor<8xi64>
  return %r : tensor<8xi64>
}

func.func @main(%a: memref<8xi32>, %b: memref<8xi32>, %out: memref<8x8xi32>, %out2: memref<8xi64>) attributes {llvm.emit_c_interface} {
  %ta = bufferization.to_tensor %a restrict : memref<8xi32> to tensor<8xi32>
  %tb = bufferization.to_tensor %b restrict : memref<8xi32> to tensor<8xi32>
  %r = call @ops(%ta, %tb) : (tensor<8xi32>, tensor<8xi32>) -> tensor<8x8xi32>
  %w = call @wide(%ta) : (tensor<8xi32>) -> tensor<8xi64>
  %m = bufferization.to_buffer %r : tensor<8x8xi32> to memref<8x8xi32>
  memref.copy %m, %out : memref<8x8xi32> to memref<8x8xi32>
  %m2 = bufferization.to_buffer %w : tensor<8xi64> to memref<8xi64>
  memref.copy %m2, %out2 : memref<8xi64> to memref<8xi64>
  return
}
