// vector.contract (matmul and dot), vector.outerproduct, create_mask and
// vector.print through lower-to-cpu. The values are small integers, exact in f32.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:( ( 5, 6, 5, 15 ), ( 11, 12, 14, 33 ) )
// CHECK-NEXT:( ( 1, -1 ), ( 2, -2 ), ( 3, -3 ) )
// CHECK-NEXT:14
// CHECK-NEXT:( 8, 9, -1, -1 )
// CHECK-NEXT:( 7, 8, 9, -1 )
// CHECK-NEXT:( 1, 1, 1, 0 )
// CHECK-NEXT:done
// CHECK-NEXT:5, 

func.func @main() {
  %a0 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %a1 = arith.constant dense<[4.0, 5.0, 6.0]> : vector<3xf32>
  %b0 = arith.constant dense<[1.0, 0.0, 2.0, 1.0]> : vector<4xf32>
  %b1 = arith.constant dense<[0.0, 1.0, 1.0, 2.0]> : vector<4xf32>
  %b2 = arith.constant dense<[1.0, 1.0, 0.0, 3.0]> : vector<4xf32>
  %one = arith.constant 1.0 : f32
  %c = vector.broadcast %one : f32 to vector<2x4xf32>
  %ai = vector.broadcast %a0 : vector<3xf32> to vector<2x3xf32>
  %a = vector.insert %a1, %ai [1] : vector<3xf32> into vector<2x3xf32>
  %bi = vector.broadcast %b0 : vector<4xf32> to vector<3x4xf32>
  %bj = vector.insert %b1, %bi [1] : vector<4xf32> into vector<3x4xf32>
  %b = vector.insert %b2, %bj [2] : vector<4xf32> into vector<3x4xf32>
  %0 = vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %b, %c : vector<2x3xf32>, vector<3x4xf32> into vector<2x4xf32>
  vector.print %0 : vector<2x4xf32>
  %x = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %y = arith.constant dense<[1.0, -1.0]> : vector<2xf32>
  %1 = vector.outerproduct %x, %y : vector<3xf32>, vector<2xf32>
  vector.print %1 : vector<3x2xf32>
  %z = arith.constant 0.0 : f32
  %d = vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %x, %x, %z : vector<3xf32>, vector<3xf32> into f32
  vector.print %d : f32
  %mem = memref.alloc() : memref<6xf32>
  %c0 = arith.constant 0 : index
  %c3 = arith.constant 3 : index
  %c4 = arith.constant 4 : index
  %v = arith.constant dense<[7.0, 8.0, 9.0, 10.0]> : vector<4xf32>
  vector.transfer_write %v, %mem[%c0] : vector<4xf32>, memref<6xf32>
  vector.transfer_write %v, %mem[%c3] : vector<4xf32>, memref<6xf32>
  %m = vector.create_mask %c3 : vector<4xi1>
  %pad = arith.constant -1.0 : f32
  %r = vector.transfer_read %mem[%c4], %pad : memref<6xf32>, vector<4xf32>
  vector.print %r : vector<4xf32>
  %r2 = vector.mask %m { vector.transfer_read %mem[%c0], %pad : memref<6xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %r2 : vector<4xf32>
  vector.print %m : vector<4xi1>
  vector.print str "done"
  %i = arith.constant 5 : i32
  vector.print %i : i32 punctuation <comma>
  vector.print punctuation <newline>
  memref.dealloc %mem : memref<6xf32>
  return
}
