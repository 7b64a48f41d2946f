// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// Round trip of the gpu ops in upstream MLIR's custom syntax; the same file is
// read by upstream MLIR in tests/test_dialect_gpu.py.

// CHECK: module attributes {gpu.container_module}
// CHECK-LABEL: gpu.module @kernels
// CHECK-LABEL: gpu.func @kernel
// CHECK-SAME: (%arg0: f32, %arg1: memref<?xf32>) workgroup(%arg2 : memref<32xf32, #gpu.address_space<workgroup>>) private(%arg3 : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>}
// CHECK: %thread_id_x = gpu.thread_id x
// CHECK: %block_id_y = gpu.block_id y upper_bound 8
// CHECK: %block_dim_z = gpu.block_dim z
// CHECK: %grid_dim_x = gpu.grid_dim x
// CHECK: %global_id_x = gpu.global_id x upper_bound 65536
// CHECK: %0 = gpu.lane_id
// CHECK: %1 = gpu.lane_id upper_bound 32
// CHECK: %2 = gpu.subgroup_id : index
// CHECK: %3 = gpu.num_subgroups : index
// CHECK: %4 = gpu.subgroup_size : index
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @sync
// CHECK-SAME: (%arg0: f32, %arg1: i32, %arg2: vector<4xf32>) kernel
// CHECK-NEXT: gpu.barrier
// CHECK: gpu.barrier scope <subgroup>
// CHECK: gpu.barrier memfence [#gpu.address_space<workgroup>]
// CHECK: gpu.barrier memfence []
// CHECK: gpu.barrier memfence [#gpu.address_space<global>] scope <cluster>
// CHECK: %shuffleResult, %valid = gpu.shuffle xor %arg0, %arg1, %arg1 : f32
// CHECK: %shuffleResult_0, %valid_1 = gpu.shuffle idx %arg2, %arg1, %arg1 : vector<4xf32>
// CHECK: %shuffleResult_2, %valid_3 = gpu.shuffle down %arg1, %arg1, %arg1 : i32
// CHECK: %shuffleResult_4, %valid_5 = gpu.shuffle up %arg0, %arg1, %arg1 : f32
// CHECK: %rotateResult, %valid{{.*}} = gpu.rotate %arg0, 1, 16 : f32
// CHECK: gpu.rotate %arg2, 0, 4 {note = "kept"} : vector<4xf32>
// CHECK: gpu.rotate %arg1, 31, 32 : i32
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @reduce
// CHECK-SAME: (%arg0: f32, %arg1: i32, %arg2: vector<4xf32>) kernel
// CHECK: %0 = gpu.all_reduce add %arg0 {
// CHECK: } : (f32) -> f32
// CHECK: %1 = gpu.all_reduce minsi %arg1 uniform {
// CHECK: } : (i32) -> i32
// CHECK: %2 = gpu.all_reduce %arg0 {
// CHECK: ^bb0(%arg3: f32, %arg4: f32):
// CHECK: %6 = arith.addf %arg3, %arg4 : f32
// CHECK: gpu.yield %6 : f32
// CHECK: } : (f32) -> f32
// CHECK: %3 = gpu.subgroup_reduce maxnumf %arg2 : (vector<4xf32>) -> vector<4xf32>
// CHECK: %4 = gpu.subgroup_reduce add %arg0 cluster(size = 4) : (f32) -> f32
// CHECK: %5 = gpu.subgroup_reduce xor %arg1 uniform cluster(size = 8, stride = 2) : (i32) -> i32
// CHECK: gpu.printf "Hello %f\0A", %arg0 : f32
// CHECK: gpu.printf "done\0A"
// CHECK: gpu.return
// CHECK-LABEL: gpu.func @device
// CHECK-SAME: (%arg0: f32 {foo.arg}, %arg1: index) -> (f32 {foo.res}) workgroup(%arg2 : memref<4xf32, #gpu.address_space<workgroup>> {foo.align = 8 : i64}, %arg3 : memref<4xf32, 3{{( : i64)?}}>) private(%arg4 : memref<1xf32, 5{{( : i64)?}}>) attributes {gpu.known_block_size = array<i32: 1, 2, 3>, known_grid_size = array<i32: 2, 2, 2>}
// CHECK: gpu.return %arg0 : f32
// CHECK-LABEL: gpu.func @plain
// CHECK-SAME: (%arg0: i32) -> (i32, i32)
// CHECK: gpu.return %arg0, %arg0 : i32, i32
// CHECK-LABEL: gpu.module @empty attributes {foo = 1 : i64}
// CHECK-LABEL: func.func @memory
// CHECK-SAME: (%arg0: memref<?xf32>, %arg1: index, %arg2: f32)
// CHECK: %0 = gpu.wait async
// CHECK: %1 = gpu.wait async [%0, %0]
// CHECK: %2:2 = gpu.alloc async [%1] (%arg1) : memref<?xf32, #gpu.address_space<global>>
// CHECK: %3 = gpu.alloc host_shared (%arg1) : memref<?xf32, #gpu.address_space<global>>
// CHECK: %4:2 = gpu.alloc async (%arg1)[%arg1] : memref<?x4xf32, {{.*}}>
// CHECK: %5 = gpu.memcpy async [%2#1] %2#0, %arg0 : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
// CHECK: gpu.memcpy %2#0, %arg0 : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
// CHECK: %6 = gpu.memset async [%5] %2#0, %arg2 : memref<?xf32, #gpu.address_space<global>>, f32
// CHECK: gpu.memset %2#0, %arg2 : memref<?xf32, #gpu.address_space<global>>, f32
// CHECK: %7 = gpu.dealloc async [%6] %2#0 : memref<?xf32, #gpu.address_space<global>>
// CHECK: gpu.dealloc %3 : memref<?xf32, #gpu.address_space<global>>
// CHECK: gpu.wait [%7]
// CHECK-NEXT: gpu.wait
// CHECK: return
// CHECK-LABEL: func.func @launch_func
// CHECK-SAME: (%arg0: memref<?xf32>, %arg1: f32, %arg2: i32, %arg3: !llvm.ptr)
// CHECK: %c1 = arith.constant 1 : index
// CHECK: %0 = gpu.wait async
// CHECK: gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%arg1 : f32, %arg0 : memref<?xf32>)
// CHECK: %1 = gpu.launch_func async [%0] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %arg2 args(%arg1 : f32, %arg0 : memref<?xf32>)
// CHECK: gpu.launch_func <%arg3 : !llvm.ptr> @kernels::@kernel clusters in (%arg2, %arg2, %arg2) blocks in (%arg2, %arg2, %arg2) threads in (%arg2, %arg2, %arg2) : i32 args(%arg1 : f32, %arg0 : memref<?xf32>) {foo}
// CHECK: return
// CHECK-LABEL: func.func @launch
// CHECK-SAME: (%arg0: index, %arg1: i32)
// CHECK: gpu.launch blocks(%arg2, %arg3, %arg4) in (%arg8 = %arg0, %arg9 = %arg0, %arg10 = %arg0) threads(%arg5, %arg6, %arg7) in (%arg11 = %arg0, %arg12 = %arg0, %arg13 = %arg0) {
// CHECK: %2 = arith.addi %arg2, %arg5 : index
// CHECK: gpu.terminator
// CHECK: %0 = gpu.wait async
// CHECK: %1 = gpu.launch async [%0] clusters(%arg14, %arg15, %arg16) in (%arg17 = %arg0, %arg18 = %arg0, %arg19 = %arg0) blocks(%arg2, %arg3, %arg4) in (%arg8 = %arg0, %arg9 = %arg0, %arg10 = %arg0) threads(%arg5, %arg6, %arg7) in (%arg11 = %arg0, %arg12 = %arg0, %arg13 = %arg0) dynamic_shared_memory_size %arg1 module(@km) function(@kf) workgroup(%arg20 : memref<4xf32, #gpu.address_space<workgroup>>) private(%arg21 : memref<1xf32, #gpu.address_space<private>>) {
// CHECK: %2 = arith.addi %arg14, %arg19 : index
// CHECK: %3 = memref.load %arg20[%2] : memref<4xf32, #gpu.address_space<workgroup>>
// CHECK: memref.store %3, %arg21[%arg2] : memref<1xf32, #gpu.address_space<private>>
// CHECK: gpu.terminator
// CHECK: } {attr = 3 : i64}
// CHECK: return

module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @kernel(%arg0: f32, %arg1: memref<?xf32>) workgroup(%wg : memref<32xf32, #gpu.address_space<workgroup>>) private(%pv : memref<1xf32, #gpu.address_space<private>>) kernel attributes {known_block_size = array<i32: 32, 1, 1>} {
      %tid = gpu.thread_id x
      %bid = gpu.block_id y upper_bound 8
      %bdim = gpu.block_dim z
      %gdim = gpu.grid_dim x
      %gid = gpu.global_id x upper_bound 65536
      %lane = gpu.lane_id
      %lane2 = gpu.lane_id upper_bound 32
      %sgid = gpu.subgroup_id : index
      %nsg = gpu.num_subgroups : index
      %sgsize = gpu.subgroup_size : index
      gpu.return
    }
    gpu.func @sync(%a: f32, %i: i32, %v: vector<4xf32>) kernel {
      gpu.barrier
      gpu.barrier scope <subgroup>
      gpu.barrier memfence [#gpu.address_space<workgroup>]
      gpu.barrier memfence []
      gpu.barrier memfence [#gpu.address_space<global>] scope <cluster>
      %sh, %valid = gpu.shuffle xor %a, %i, %i : f32
      %shv, %validv = gpu.shuffle idx %v, %i, %i : vector<4xf32>
      %shi, %validi = gpu.shuffle down %i, %i, %i : i32
      %shu, %validu = gpu.shuffle up %a, %i, %i : f32
      %rot, %validr = gpu.rotate %a, 1, 16 : f32
      %rotv, %validrv = gpu.rotate %v, 0, 4 {note = "kept"} : vector<4xf32>
      %roti, %validri = gpu.rotate %i, 31, 32 : i32
      gpu.return
    }
    gpu.func @reduce(%a: f32, %i: i32, %v: vector<4xf32>) kernel {
      %r0 = gpu.all_reduce add %a {} : (f32) -> (f32)
      %r1 = gpu.all_reduce minsi %i uniform {} : (i32) -> i32
      %r2 = gpu.all_reduce %a {
      ^bb0(%lhs: f32, %rhs: f32):
        %sum = arith.addf %lhs, %rhs : f32
        gpu.yield %sum : f32
      } : (f32) -> f32
      %r3 = gpu.subgroup_reduce maxnumf %v : (vector<4xf32>) -> vector<4xf32>
      %r4 = gpu.subgroup_reduce add %a cluster(size = 4) : (f32) -> f32
      %r5 = gpu.subgroup_reduce xor %i uniform cluster(size = 8, stride = 2) : (i32) -> i32
      gpu.printf "Hello %f\n", %a : f32
      gpu.printf "done\n"
      gpu.return
    }
    gpu.func @device(%a: f32 {foo.arg}, %b: index) -> (f32 {foo.res}) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>> {foo.align = 8 : i64}, %w2 : memref<4xf32, 3>) private(%p : memref<1xf32, 5>) attributes {gpu.known_block_size = array<i32: 1, 2, 3>, known_grid_size = array<i32: 2, 2, 2>} {
      gpu.return %a : f32
    }
    gpu.func @plain(%a: i32) -> (i32, i32) {
      gpu.return %a, %a : i32, i32
    }
  }
  gpu.module @empty attributes {foo = 1 : i64} {
  }
  func.func @memory(%m: memref<?xf32>, %n: index, %f: f32) {
    %t0 = gpu.wait async
    %t1 = gpu.wait async [%t0, %t0]
    %mem, %ta = gpu.alloc async [%t1] (%n) : memref<?xf32, #gpu.address_space<global>>
    %shared = gpu.alloc host_shared (%n) : memref<?xf32, #gpu.address_space<global>>
    %sym, %ts = gpu.alloc async (%n)[%n] : memref<?x4xf32, affine_map<(d0, d1)[s0] -> (d0 * 4 + d1 + s0)>>
    %t2 = gpu.memcpy async [%ta] %mem, %m : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    gpu.memcpy %mem, %m : memref<?xf32, #gpu.address_space<global>>, memref<?xf32>
    %t3 = gpu.memset async [%t2] %mem, %f : memref<?xf32, #gpu.address_space<global>>, f32
    gpu.memset %mem, %f : memref<?xf32, #gpu.address_space<global>>, f32
    %t4 = gpu.dealloc async [%t3] %mem : memref<?xf32, #gpu.address_space<global>>
    gpu.dealloc %shared : memref<?xf32, #gpu.address_space<global>>
    gpu.wait [%t4]
    gpu.wait
    return
  }
  func.func @launch_func(%m: memref<?xf32>, %f: f32, %i: i32, %p: !llvm.ptr) {
    %c1 = arith.constant 1 : index
    %t0 = gpu.wait async
    gpu.launch_func @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) args(%f : f32, %m : memref<?xf32>)
    %t1 = gpu.launch_func async [%t0] @kernels::@kernel blocks in (%c1, %c1, %c1) threads in (%c1, %c1, %c1) dynamic_shared_memory_size %i args(%f : f32, %m : memref<?xf32>)
    gpu.launch_func <%p : !llvm.ptr> @kernels::@kernel clusters in (%i, %i, %i) blocks in (%i, %i, %i) threads in (%i, %i, %i) : i32 args(%f : f32, %m : memref<?xf32>) {foo}
    return
  }
  func.func @launch(%sz: index, %smem: i32) {
    gpu.launch blocks(%bx, %by, %bz) in (%gx = %sz, %gy = %sz, %gz = %sz) threads(%tx, %ty, %tz) in (%sx = %sz, %sy = %sz, %sz2 = %sz) {
      %s = arith.addi %bx, %tx : index
      gpu.terminator
    }
    %t0 = gpu.wait async
    %t1 = gpu.launch async [%t0] clusters(%cx, %cy, %cz) in (%ncx = %sz, %ncy = %sz, %ncz = %sz) blocks(%bx2, %by2, %bz2) in (%gx2 = %sz, %gy2 = %sz, %gz2 = %sz) threads(%tx2, %ty2, %tz2) in (%sx2 = %sz, %sy2 = %sz, %sz3 = %sz) dynamic_shared_memory_size %smem module(@km) function(@kf) workgroup(%w : memref<4xf32, #gpu.address_space<workgroup>>) private(%p : memref<1xf32, #gpu.address_space<private>>) {
      %s2 = arith.addi %cx, %ncz : index
      %v = memref.load %w[%s2] : memref<4xf32, #gpu.address_space<workgroup>>
      memref.store %v, %p[%bx2] : memref<1xf32, #gpu.address_space<private>>
      gpu.terminator
    } {attr = 3 : i64}
    return
  }
  // CHECK-LABEL: func.func @host_registration
  // CHECK: gpu.host_register %{{.*}} : memref<*xf32>
  // CHECK: gpu.host_unregister %{{.*}} : memref<*xf32>
  // CHECK: gpu.set_default_device %{{.*}}
  func.func @host_registration(%m: memref<*xf32>, %d: i32) {
    gpu.host_register %m : memref<*xf32>
    gpu.host_unregister %m : memref<*xf32>
    gpu.set_default_device %d
    return
  }
}
