// RUN: mlkit-opt %s -split-input-file -convert-cf-to-llvm | FileCheck %s

// Branch operands and destination block arguments take converted types.
// CHECK-LABEL: func.func @branches
// CHECK: %[[I:.*]] = builtin.unrealized_conversion_cast %{{.*}} : index to i64
// CHECK: llvm.cond_br %{{.*}}, ^bb1(%[[I]] : i64), ^bb2
// CHECK: ^bb1(%[[K:.*]]: i64):
// CHECK: builtin.unrealized_conversion_cast %[[K]] : i64 to index
// CHECK: llvm.br ^bb2
// CHECK: llvm.switch %{{.*}} : i32, ^bb3 [
// CHECK-NEXT: 3: ^bb4
func.func @branches(%i: index, %c: i1, %s: i32) -> index {
  cf.cond_br %c, ^bb1(%i : index), ^bb2
^bb1(%k: index):
  %d = arith.addi %k, %k : index
  cf.br ^bb2
^bb2:
  cf.switch %s : i32, [default: ^bb3, 3: ^bb4]
^bb3:
  return %i : index
^bb4:
  return %i : index
}

// -----

// CHECK: llvm.func @abort()
// CHECK: llvm.func @puts(!llvm.ptr)
// CHECK: llvm.mlir.global private constant @assert_msg(dense<[110, 111, 0]> : tensor<3xi8>)
// CHECK-LABEL: func.func @assert
// CHECK: llvm.cond_br %{{.*}}, ^bb1, ^bb2
// CHECK: ^bb1:
// CHECK-NEXT: return
// CHECK: ^bb2:
// CHECK: llvm.mlir.addressof @assert_msg : !llvm.ptr
// CHECK: llvm.call @puts
// CHECK: llvm.call @abort() : () -> ()
// CHECK-NEXT: llvm.unreachable
func.func @assert(%c: i1) {
  cf.assert %c, "no"
  return
}

// -----

// Blocks whose arguments have no LLVM type keep their branches.
// CHECK-LABEL: func.func @tensors
// CHECK: cf.br ^bb1(%{{.*}} : tensor<2xf32>)
func.func @tensors(%t: tensor<2xf32>) -> tensor<2xf32> {
  cf.br ^bb1(%t : tensor<2xf32>)
^bb1(%u: tensor<2xf32>):
  return %u : tensor<2xf32>
}
