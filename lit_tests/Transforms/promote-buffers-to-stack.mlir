// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(promote-buffers-to-stack))' | filecheck %s
// RUN: mlkit-opt %s -allow-unregistered-dialect -split-input-file -p 'builtin.module(func.func(promote-buffers-to-stack{max-alloc-size-in-bytes=4096 max-rank-of-allocated-memref=2}))' | filecheck %s --check-prefix=LARGER
// RUN: not mlkit-opt %s -p 'builtin.module(func.func(promote-buffers-to-stack{max-alloc-size-in-bytes=-1}))' 2>&1 | filecheck %s --check-prefix=BAD

// BAD: max-alloc-size-in-bytes

// Small static buffers go on the stack, whatever their rank; 1024 bytes is
// the default limit (index counts 64 bits).
// CHECK-LABEL: func.func @sizes
//       CHECK: memref.alloca() : memref<4x8xf32>
//       CHECK: memref.alloca() : memref<128xindex>
//       CHECK: memref.alloc() : memref<129xindex>
//       CHECK: memref.alloca() : memref<8192xi1>
//       CHECK: memref.alloc() {alignment = 64 : i64} : memref<257xf32>
// LARGER-LABEL: func.func @sizes
//       LARGER: memref.alloca() {alignment = 64 : i64} : memref<257xf32>
func.func @sizes() {
  %a = memref.alloc() : memref<4x8xf32>
  %b = memref.alloc() : memref<128xindex>
  %c = memref.alloc() : memref<129xindex>
  %d = memref.alloc() : memref<8192xi1>
  %e = memref.alloc() {alignment = 64 : i64} : memref<257xf32>
  "test.use"(%a, %b, %c, %d, %e) : (memref<4x8xf32>, memref<128xindex>, memref<129xindex>, memref<8192xi1>, memref<257xf32>) -> ()
  return
}

// -----

// A dynamic size counts as small only when it is a rank.
// CHECK-LABEL: func.func @dynamic
//       CHECK: memref.alloca(%{{.*}}) : memref<?xindex>
//       CHECK: memref.alloc(%{{.*}}) : memref<?xf32>
//       CHECK: memref.alloc(%{{.*}}, %{{.*}}) : memref<?x?xindex>
// LARGER-LABEL: func.func @dynamic
//       LARGER: memref.alloca(%{{.*}}, %{{.*}}) : memref<?x?xindex>
func.func @dynamic(%u: memref<*xf32>, %n: index) {
  %r = memref.rank %u : memref<*xf32>
  %a = memref.alloc(%r) : memref<?xindex>
  %b = memref.alloc(%n) : memref<?xf32>
  %c = memref.alloc(%r, %r) : memref<?x?xindex>
  "test.use"(%a, %b, %c) : (memref<?xindex>, memref<?xf32>, memref<?x?xindex>) -> ()
  return
}

// -----

// Left alone: a returned buffer (also through a view) and one already freed.
// CHECK-LABEL: func.func @escapes
//       CHECK: memref.alloc() : memref<8xf32>
//       CHECK: memref.alloc() : memref<8xf32>
//       CHECK: memref.alloc() : memref<4xf32>
//   CHECK-NOT: memref.alloca
func.func @escapes() -> (memref<8xf32>, memref<?xf32>) {
  %a = memref.alloc() : memref<8xf32>
  %b = memref.alloc() : memref<8xf32>
  %v = memref.cast %b : memref<8xf32> to memref<?xf32>
  %c = memref.alloc() : memref<4xf32>
  "test.use"(%c) : (memref<4xf32>) -> ()
  memref.dealloc %c : memref<4xf32>
  return %a, %v : memref<8xf32>, memref<?xf32>
}

// -----

// Inside control flow: promoted in an scf.if and in a loop body (scf.for is an
// allocation scope), unless the loop yields the buffer on; not in an scf.while
// or an unknown op.
// CHECK-LABEL: func.func @nested
//       CHECK: scf.if
//  CHECK-NEXT:   memref.alloca() : memref<8xf32>
//       CHECK: scf.for
//  CHECK-NEXT:   memref.alloca() : memref<8xf32>
//       CHECK: scf.for
//  CHECK-NEXT:   memref.alloc() : memref<8xf32>
//       CHECK: scf.while
//       CHECK:   memref.alloc() : memref<8xf32>
//       CHECK: "test.region"
//  CHECK-NEXT:   memref.alloc() : memref<8xf32>
func.func @nested(%c: i1, %n: index, %init: memref<8xf32>) {
  scf.if %c {
    %a = memref.alloc() : memref<8xf32>
    "test.use"(%a) : (memref<8xf32>) -> ()
    scf.yield
  }
  scf.for %i = %n to %n step %n {
    %b = memref.alloc() : memref<8xf32>
    "test.use"(%b) : (memref<8xf32>) -> ()
    scf.yield
  }
  %r = scf.for %i = %n to %n step %n iter_args(%acc = %init) -> memref<8xf32> {
    %d = memref.alloc() : memref<8xf32>
    "test.use"(%acc, %d) : (memref<8xf32>, memref<8xf32>) -> ()
    scf.yield %d : memref<8xf32>
  }
  scf.while () : () -> () {
    %go = "test.cond"() : () -> i1
    scf.condition(%go)
  } do {
    %e = memref.alloc() : memref<8xf32>
    "test.use"(%e) : (memref<8xf32>) -> ()
    scf.yield
  }
  "test.region"() ({
    %f = memref.alloc() : memref<8xf32>
    "test.use"(%f) : (memref<8xf32>) -> ()
    "test.end"() : () -> ()
  }) : () -> ()
  "test.use"(%r) : (memref<8xf32>) -> ()
  return
}
