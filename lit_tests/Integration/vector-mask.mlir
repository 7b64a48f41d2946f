// vector.mask around a contraction (a mask over its iteration space), around
// a read with a pass-through and around a masked read (both masks apply),
// through lower-to-cpu.

// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu{deallocation=false})' \
// RUN: | mlkit-run -e main -entry-point-result=void \
// RUN: | filecheck %s --strict-whitespace --match-full-lines

// CHECK:( ( 3, 30 ), ( 0, 0 ) )
// CHECK-NEXT:5
// CHECK-NEXT:( 1, 2, 7, 7 )
// CHECK-NEXT:( ( 1, 2, 0, 0 ), ( 0, 0, 0, 0 ) )

func.func @main() {
  %a0 = arith.constant dense<[1.0, 2.0, 3.0]> : vector<3xf32>
  %b0 = arith.constant dense<[1.0, 10.0]> : vector<2xf32>
  %a = vector.broadcast %a0 : vector<3xf32> to vector<2x3xf32>
  %bb = vector.broadcast %b0 : vector<2xf32> to vector<3x2xf32>
  %z = arith.constant 0.0 : f32
  %c = vector.broadcast %z : f32 to vector<2x2xf32>
  %c1 = arith.constant 1 : index
  %c2 = arith.constant 2 : index
  %m = vector.create_mask %c1, %c2, %c2 : vector<2x2x3xi1>
  %0 = vector.mask %m { vector.contract {indexing_maps = [affine_map<(i, j, k) -> (i, k)>, affine_map<(i, j, k) -> (k, j)>, affine_map<(i, j, k) -> (i, j)>], iterator_types = ["parallel", "parallel", "reduction"]} %a, %bb, %c : vector<2x3xf32>, vector<3x2xf32> into vector<2x2xf32> } : vector<2x2x3xi1> -> vector<2x2xf32>
  vector.print %0 : vector<2x2xf32>
  %md = vector.create_mask %c2 : vector<3xi1>
  %d = vector.mask %md { vector.contract {indexing_maps = [affine_map<(k) -> (k)>, affine_map<(k) -> (k)>, affine_map<(k) -> ()>], iterator_types = ["reduction"]} %a0, %a0, %z : vector<3xf32>, vector<3xf32> into f32 } : vector<3xi1> -> f32
  vector.print %d : f32
  %mem = memref.alloc() : memref<4xf32>
  %c0 = arith.constant 0 : index
  %fill = arith.constant dense<[1.0, 2.0, 3.0, 4.0]> : vector<4xf32>
  vector.transfer_write %fill, %mem[%c0] {in_bounds = [true]} : vector<4xf32>, memref<4xf32>
  %k = vector.create_mask %c2 : vector<4xi1>
  %seven = arith.constant 7.0 : f32
  %p = vector.broadcast %seven : f32 to vector<4xf32>
  %pad = arith.constant -1.0 : f32
  %r = vector.mask %k, %p { vector.transfer_read %mem[%c0], %pad {in_bounds = [true]} : memref<4xf32>, vector<4xf32> } : vector<4xi1> -> vector<4xf32>
  vector.print %r : vector<4xf32>
  %grid = memref.alloc() : memref<2x4xf32>
  vector.transfer_write %fill, %grid[%c0, %c0] {in_bounds = [true]} : vector<4xf32>, memref<2x4xf32>
  vector.transfer_write %fill, %grid[%c1, %c0] {in_bounds = [true]} : vector<4xf32>, memref<2x4xf32>
  %c3 = arith.constant 3 : index
  %outer = vector.create_mask %c2, %c3 : vector<2x4xi1>
  %own = vector.create_mask %c1, %c2 : vector<2x4xi1>
  %zero = arith.constant 0.0 : f32
  %both = vector.mask %outer { vector.transfer_read %grid[%c0, %c0], %zero, %own : memref<2x4xf32>, vector<2x4xf32> } : vector<2x4xi1> -> vector<2x4xf32>
  vector.print %both : vector<2x4xf32>
  memref.dealloc %grid : memref<2x4xf32>
  memref.dealloc %mem : memref<4xf32>
  return
}
