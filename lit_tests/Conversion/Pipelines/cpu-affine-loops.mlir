// affine.for with bounds maps and iter_args, affine.if with an else branch,
// affine.load/store and affine.apply on memrefs.
// RUN: mlkit-opt %s -p 'builtin.module(lower-to-cpu)' --emit=llvm | filecheck %s
// CHECK-LABEL: define void @main()
// CHECK-COUNT-3: call void @printMemrefF32(i64 %{{[0-9]+}}, ptr

#upper_half = affine_set<(d0) : (d0 - 4 >= 0)>
#diag = affine_set<(d0, d1) : (d0 - d1 == 0)>
#lb = affine_map<(d0) -> (d0)>
#ub = affine_map<(d0) -> (d0 + 3, 5)>
#twice = affine_map<(d0, d1) -> (d0 * 2 + d1)>
func.func private @printMemrefF32(memref<*xf32>)

func.func @main() {
  %v = memref.alloc() : memref<8xf32>
  affine.for %i = 0 to 8 {
    %ii = arith.index_cast %i : index to i32
    %f = arith.sitofp %ii : i32 to f32
    affine.if #upper_half(%i) {
      affine.store %f, %v[%i] : memref<8xf32>
    } else {
      %n = arith.negf %f : f32
      affine.store %n, %v[%i] : memref<8xf32>
    }
  }
  %zero = arith.constant 0.0 : f32
  %sum:2 = affine.for %i = 0 to 8 step 2 iter_args(%s = %zero, %p = %zero) -> (f32, f32) {
    %x = affine.load %v[%i] : memref<8xf32>
    %y = affine.load %v[%i + 1] : memref<8xf32>
    %s2 = arith.addf %s, %x : f32
    %p2 = arith.addf %p, %y : f32
    affine.yield %s2, %p2 : f32, f32
  }
  %r = memref.alloc() : memref<2xf32>
  affine.store %sum#0, %r[0] : memref<2xf32>
  affine.store %sum#1, %r[1] : memref<2xf32>

  %m = memref.alloc() : memref<5x5xf32>
  affine.for %i = 0 to 5 {
    affine.for %j = 0 to 5 {
      affine.store %zero, %m[%i, %j] : memref<5x5xf32>
    }
  }
  affine.for %i = 0 to 5 {
    affine.for %j = max #lb(%i) to min #ub(%i) {
      %k = affine.apply #twice(%i, %j)
      %ki = arith.index_cast %k : index to i32
      %kf = arith.sitofp %ki : i32 to f32
      affine.if #diag(%i, %j) {
        %kk = arith.mulf %kf, %kf : f32
        affine.store %kk, %m[%i, %j] : memref<5x5xf32>
      } else {
        affine.store %kf, %m[%i, %j] : memref<5x5xf32>
      }
    }
  }
  %u1 = memref.cast %v : memref<8xf32> to memref<*xf32>
  call @printMemrefF32(%u1) : (memref<*xf32>) -> ()
  %u2 = memref.cast %r : memref<2xf32> to memref<*xf32>
  call @printMemrefF32(%u2) : (memref<*xf32>) -> ()
  %u3 = memref.cast %m : memref<5x5xf32> to memref<*xf32>
  call @printMemrefF32(%u3) : (memref<*xf32>) -> ()
  return
}
