// Transfers of rank 2, out of bounds, transposed, broadcast and masked, through
// lower-to-cpu (convert-vector-to-scf splits them into 1-D transfers).

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:( ( 0, 0, 0, 0 ), ( 0, 1, 2, 3 ), ( -1, -1, -1, -1 ) )
// CHECK-NEXT:( 0, 0, 1, -1 )
// CHECK-NEXT:( ( 0, 0, -1, -1 ), ( 0, 0, -1, -1 ), ( -1, -1, -1, -1 ) )
// CHECK-NEXT:( 2, 2, 2, 2 )
// CHECK-NEXT:( ( 1, 2, 3, -1 ), ( 1, 2, 3, -1 ) )

func.func @main() {
  %mem = memref.alloc() : memref<3x4xf32>
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %f = arith.constant 2.0 : f32
  %row = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  %v = vector.broadcast %row : vector<4xf32> to vector<2x4xf32>
  %z = arith.constant 0.0 : f32
  %zero = vector.broadcast %z : f32 to vector<3x4xf32>
  vector.transfer_write %zero, %mem[%c0, %c0] : vector<3x4xf32>, memref<3x4xf32>
  vector.transfer_write %v, %mem[%c2, %c1] : vector<2x4xf32>, memref<3x4xf32>
  %pad = arith.constant -1.0 : f32
  %r = vector.transfer_read %mem[%c1, %c0], %pad : memref<3x4xf32>, vector<3x4xf32>
  vector.print %r : vector<3x4xf32>
  %t = vector.transfer_read %mem[%c0, %c1], %pad {permutation_map = affine_map<(d0, d1) -> (d0)>} : memref<3x4xf32>, vector<4xf32>
  vector.print %t : vector<4xf32>
  %m = vector.create_mask %c2, %c2 : vector<3x4xi1>
  %rm = vector.transfer_read %mem[%c0, %c1], %pad, %m : memref<3x4xf32>, vector<3x4xf32>
  vector.print %rm : vector<3x4xf32>
  %bs = vector.transfer_read %mem[%c2, %c2], %pad {in_bounds = [true], permutation_map = affine_map<(d0, d1) -> (0)>} : memref<3x4xf32>, vector<4xf32>
  vector.print %bs : vector<4xf32>
  %bn = vector.transfer_read %mem[%c2, %c1], %pad {in_bounds = [true, false], permutation_map = affine_map<(d0, d1) -> (0, d1)>} : memref<3x4xf32>, vector<2x4xf32>
  vector.print %bn : vector<2x4xf32>
  memref.dealloc %mem : memref<3x4xf32>
  return
}
