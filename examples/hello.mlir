// A first program for mlkit-opt: CSE merges the duplicate constants and
// canonicalize folds the arithmetic, as upstream's passes do.
func.func @hello(%x: i32) -> i32 {
  %c2 = arith.constant 2 : i32
  %c2_0 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
  %0 = arith.muli %c2, %c3 : i32
  %1 = arith.addi %x, %0 : i32
  %unused = arith.addi %c2_0, %c3 : i32
  return %1 : i32
}
