// RUN: mlkit-opt %s -split-input-file -p 'builtin.module(gpu-kernels-to-host)' | filecheck %s

// gpu-kernels-to-host adds, for each kernel, a host function that runs the
// kernel's grid as loops (mlkit.runtime.gpu_host runs programs with it).

// A kernel without barriers: one thread loop nest inside the block loops;
// what depends only on the block (its offset) is computed once per block.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @scale(%x: memref<?xf32>, %n: index, %a: f32) kernel {
      %bx = gpu.block_id x
      %sx = gpu.block_dim x
      %tx = gpu.thread_id x
      %base = arith.muli %bx, %sx : index
      %i = arith.addi %base, %tx : index
      %in = arith.cmpi ult, %i, %n : index
      scf.if %in {
        %v = memref.load %x[%i] : memref<?xf32>
        %w = arith.mulf %v, %a : f32
        memref.store %w, %x[%i] : memref<?xf32>
      }
      gpu.return
    }
    gpu.func @not_a_kernel(%x: memref<?xf32>) {
      gpu.return
    }
  }
}

// The kernel stays; the copy takes grid and block sizes, then the kernel's arguments.
// CHECK:       gpu.func @scale(
// CHECK-NOT:   func.func @__mlkit_host.kernels.not_a_kernel
// CHECK-LABEL: func.func @__mlkit_host.kernels.scale(
// CHECK-SAME:      %[[GX:[^:]*]]: index, %[[GY:[^:]*]]: index, %[[GZ:[^:]*]]: index, %[[SX:[^:]*]]: index, %[[SY:[^:]*]]: index, %[[SZ:[^:]*]]: index, %[[X:[^:]*]]: memref<?xf32>, %[[N:[^:]*]]: index, %[[A:[^:]*]]: f32) {
// CHECK:         scf.for %[[BZ:.*]] = %{{.*}} to %[[GZ]]
// CHECK-NEXT:      scf.for %[[BY:.*]] = %{{.*}} to %[[GY]]
// CHECK-NEXT:        scf.for %[[BX:.*]] = %{{.*}} to %[[GX]]
// CHECK-NEXT:          %[[BASE:.*]] = arith.muli %[[BX]], %[[SX]] : index
// CHECK-NEXT:          scf.for %[[TZ:.*]] = %{{.*}} to %[[SZ]]
// CHECK-NEXT:            scf.for %[[TY:.*]] = %{{.*}} to %[[SY]]
// CHECK-NEXT:              scf.for %[[TX:.*]] = %{{.*}} to %[[SX]]
// CHECK-NEXT:                %[[I:.*]] = arith.addi %[[BASE]], %[[TX]] : index
// CHECK-NEXT:                %[[IN:.*]] = arith.cmpi ult, %[[I]], %[[N]] : index
// CHECK-NEXT:                scf.if %[[IN]] {
// CHECK-NEXT:                  memref.load %[[X]][%[[I]]]
// CHECK-NOT:     gpu.
// CHECK:         return

// -----

// Threads run as loops between barriers; a value a thread computes before a
// barrier and uses after it (%v) is kept in a buffer of one per thread, ids
// are recomputed; workgroup memory is one buffer for every block.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @reverse(%x: memref<?xf32>) workgroup(%buf: memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c63 = arith.constant 63 : index
      %tx = gpu.thread_id x
      %v = memref.load %x[%tx] : memref<?xf32>
      memref.store %v, %buf[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
      gpu.barrier
      %j = arith.subi %c63, %tx : index
      %r = memref.load %buf[%j] : memref<64xf32, #gpu.address_space<workgroup>>
      %s = arith.addf %r, %v : f32
      memref.store %s, %x[%tx] : memref<?xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @__mlkit_host.kernels.reverse(
// CHECK-SAME:      %[[SX:arg3]]: index, %[[SY:arg4]]: index, %[[SZ:arg5]]: index, %[[X:.*]]: memref<?xf32>) {
// CHECK:         %[[XY:.*]] = arith.muli %[[SX]], %[[SY]] : index
// CHECK-NEXT:    %[[THREADS:.*]] = arith.muli %[[XY]], %[[SZ]] : index
// CHECK-NEXT:    %[[WG:.*]] = memref.alloc() : memref<64xf32>
// CHECK-NEXT:    %[[KEPT:.*]] = memref.alloc(%[[THREADS]]) : memref<?xf32>
// CHECK:               scf.for %[[TX:.*]] = %{{.*}} to %[[SX]]
// CHECK:                 %[[LIN:.*]] = arith.addi %{{.*}}, %[[TX]] : index
// CHECK-NEXT:            %[[V:.*]] = memref.load %[[X]][%[[TX]]] : memref<?xf32>
// CHECK-NEXT:            memref.store %[[V]], %[[KEPT]][%[[LIN]]] : memref<?xf32>
// CHECK-NEXT:            memref.store %[[V]], %[[WG]][%[[TX]]] : memref<64xf32>
// CHECK:               scf.for %[[TX2:.*]] = %{{.*}} to %[[SX]]
// CHECK:                 %[[LIN2:.*]] = arith.addi %{{.*}}, %[[TX2]] : index
// CHECK-NEXT:            %[[J:.*]] = arith.subi %{{.*}}, %[[TX2]] : index
// CHECK-NEXT:            %[[R:.*]] = memref.load %[[WG]][%[[J]]] : memref<64xf32>
// CHECK-NEXT:            %[[V2:.*]] = memref.load %[[KEPT]][%[[LIN2]]] : memref<?xf32>
// CHECK-NEXT:            arith.addf %[[R]], %[[V2]] : f32
// CHECK:         memref.dealloc %[[WG]] : memref<64xf32>
// CHECK-NEXT:    memref.dealloc %[[KEPT]] : memref<?xf32>

// -----

// A barrier in a loop every thread of the block runs alike: the loop runs
// once per block, each piece of its body for every thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @steps(%x: memref<?xf32>, %steps: index) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %tx = gpu.thread_id x
      scf.for %k = %c0 to %steps step %c1 {
        %v = memref.load %x[%tx] : memref<?xf32>
        gpu.barrier
        memref.store %v, %x[%k] : memref<?xf32>
        gpu.barrier
      }
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @__mlkit_host.kernels.steps(
// CHECK-SAME:      %[[STEPS:arg7]]: index) {
// CHECK:             scf.for %[[K:.*]] = %{{.*}} to %[[STEPS]]
// CHECK-NEXT:          scf.for
// CHECK-NEXT:            scf.for
// CHECK-NEXT:              scf.for
// CHECK:                     memref.load %arg6
// CHECK:               scf.for
// CHECK-NEXT:            scf.for
// CHECK-NEXT:              scf.for
// CHECK:                     memref.store %{{.*}}, %arg6[%[[K]]]

// -----

// A workgroup reduction: after the piece before it has run for every thread,
// the kept values are combined in thread order, once per block; the result
// is the same for every thread.
module attributes {gpu.container_module} {
  gpu.module @kernels {
    gpu.func @total(%x: memref<?xf32>, %out: memref<?xf32>) kernel {
      %tx = gpu.thread_id x
      %bx = gpu.block_id x
      %v = memref.load %x[%tx] : memref<?xf32>
      %s = gpu.all_reduce add %v uniform {} : (f32) -> f32
      memref.store %s, %out[%bx] : memref<?xf32>
      gpu.return
    }
  }
}

// CHECK-LABEL: func.func @__mlkit_host.kernels.total(
// CHECK:         %[[THREADS:.*]] = arith.muli %{{.*}}, %arg5 : index
// CHECK-NEXT:    %[[KEPT:.*]] = memref.alloc(%[[THREADS]]) : memref<?xf32>
// CHECK:                   memref.store %{{.*}}, %[[KEPT]][%{{.*}}] : memref<?xf32>
// CHECK:             %[[FIRST:.*]] = memref.load %[[KEPT]][%{{.*}}] : memref<?xf32>
// CHECK-NEXT:        %[[SUM:.*]] = scf.for %[[T:.*]] = %{{.*}} to %[[THREADS]] step %{{.*}} iter_args(%[[ACC:.*]] = %[[FIRST]]) -> (f32) {
// CHECK-NEXT:          %[[V:.*]] = memref.load %[[KEPT]][%[[T]]] : memref<?xf32>
// CHECK-NEXT:          %[[S:.*]] = arith.addf %[[ACC]], %[[V]] : f32
// CHECK-NEXT:          scf.yield %[[S]] : f32
// CHECK:                   memref.store %[[SUM]], %arg7[%{{.*}}] : memref<?xf32>

// -----

// A loop around barriers that carries values (a register tile): each
// thread's values live in per-thread buffers, the results share them. A
// global of the gpu.module gets a host copy that the copy reads.
module attributes {gpu.container_module} {
  gpu.module @carry {
    memref.global "private" constant @table : memref<4xf32> = dense<[1.0, 2.0, 3.0, 4.0]>
    gpu.func @sums(%out: memref<?xf32>, %n: index) workgroup(%tile : memref<64xf32, #gpu.address_space<workgroup>>) kernel {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %zero = arith.constant 0.0 : f32
      %tx = gpu.thread_id x
      %t = memref.get_global @table : memref<4xf32>
      %r = scf.for %k = %c0 to %n step %c1 iter_args(%acc = %zero) -> (f32) {
        %v = memref.load %t[%k] : memref<4xf32>
        memref.store %v, %tile[%tx] : memref<64xf32, #gpu.address_space<workgroup>>
        gpu.barrier
        %w = memref.load %tile[%c0] : memref<64xf32, #gpu.address_space<workgroup>>
        %s = arith.addf %acc, %w : f32
        gpu.barrier
        scf.yield %s : f32
      }
      memref.store %r, %out[%tx] : memref<?xf32>
      gpu.return
    }
  }
}

// CHECK:       gpu.module @carry {
// CHECK-NEXT:    memref.global "private" constant @table
// CHECK:       memref.global "private" constant @__mlkit_host.carry.table : memref<4xf32> = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00]>
// CHECK-LABEL: func.func @__mlkit_host.carry.sums(
// CHECK:         %[[ACC:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:         %[[NEW:.*]] = memref.alloc(%{{.*}}) : memref<?xf32>
// CHECK:         %[[INIT:.*]] = arith.constant 0.000000e+00 : f32
// CHECK:         memref.get_global @__mlkit_host.carry.table : memref<4xf32>
// The initial value, for each thread; the loop, cut at its barriers; the
// yielded value copied to the carried one, for each thread:
// CHECK:         memref.store %[[INIT]], %[[ACC]][%{{.*}}] : memref<?xf32>
// CHECK:         scf.for
// CHECK-NOT:       iter_args
// CHECK:             memref.load %[[ACC]]
// CHECK:             memref.store %{{.*}}, %[[NEW]]
// CHECK:             %[[V:.*]] = memref.load %[[NEW]]
// CHECK-NEXT:        memref.store %[[V]], %[[ACC]]
// The result is the carried value's buffer:
// CHECK:           %[[R:.*]] = memref.load %[[ACC]]
// CHECK-NEXT:      memref.store %[[R]], %arg6
