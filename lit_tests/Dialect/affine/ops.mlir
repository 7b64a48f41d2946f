// RUN: mlkit-opt %s | mlkit-opt --mlir-print-local-scope | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt --mlir-print-local-scope | filecheck %s

#map = affine_map<(d0)[s0] -> (d0 + s0)>
#ub = affine_map<(d0)[s0] -> (d0 + 5, s0)>
#set = affine_set<(d0)[s0] : (d0 - 2 >= 0, s0 - d0 - 1 >= 0)>

// CHECK-LABEL: func.func @for_bounds
// CHECK-SAME: (%[[N:.*]]: index)
func.func @for_bounds(%n: index) {
  // CHECK: affine.for %[[I:.*]] = 0 to 10 {
  affine.for %i = 0 to 10 {
    // CHECK: affine.for %{{.*}} = affine_map<(d0)[s0] -> (d0 + s0)>(%[[I]])[%[[N]]] to min affine_map<(d0)[s0] -> (d0 + 5, s0)>(%[[I]])[%[[N]]] step 2 {
    affine.for %j = #map(%i)[%n] to min #ub(%i)[%n] step 2 {
    }
  }
  // CHECK: affine.for %{{.*}} = %[[N]] to -5 step 3 {
  affine.for %i = %n to -5 step 3 {
  }
  // CHECK: affine.for %{{.*}} = max affine_map<()[s0] -> (0, s0 - 1)>()[%[[N]]] to affine_map<(d0) -> (d0)>(%[[N]]) {
  affine.for %i = max affine_map<()[s0] -> (0, s0 - 1)>()[%n] to affine_map<(d0) -> (d0)>(%n) {
  }
  // CHECK: affine.for
  // CHECK-NEXT: } {some_attr = true}
  affine.for %i = 0 to 4 {
    affine.yield
  } {some_attr = true}
  return
}

// CHECK-LABEL: func.func @for_iter_args
func.func @for_iter_args(%buffer: memref<1024xf32>) -> (f32, index) {
  %zero = arith.constant 0.0 : f32
  %c0 = arith.constant 0 : index
  // CHECK: %{{[0-9]+}}:2 = affine.for %[[I:.*]] = 0 to 10 step 2 iter_args(%[[S:.*]] = %{{.*}}, %[[C:.*]] = %{{.*}}) -> (f32, index) {
  %sum:2 = affine.for %i = 0 to 10 step 2 iter_args(%s = %zero, %c = %c0) -> (f32, index) {
    // CHECK: affine.load %{{.*}}[%[[I]]] : memref<1024xf32>
    %t = affine.load %buffer[%i] : memref<1024xf32>
    %s2 = arith.addf %s, %t : f32
    // CHECK: affine.yield %{{.*}}, %[[C]] : f32, index
    affine.yield %s2, %c : f32, index
  }
  // CHECK: affine.for %{{.*}} = 0 to 3 iter_args(%{{.*}} = %{{.*}}) -> (f32) {
  %one = affine.for %i = 0 to 3 iter_args(%s = %zero) -> f32 {
    affine.yield %s : f32
  }
  return %sum#0, %sum#1 : f32, index
}

// CHECK-LABEL: func.func @if_else
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: memref<10x20xf32>)
func.func @if_else(%n: index, %m: memref<10x20xf32>) -> f32 {
  %zero = arith.constant 0.0 : f32
  affine.for %i = 0 to 10 {
    // CHECK: affine.if affine_set<(d0)[s0] : (d0 - 2 >= 0, -d0 + s0 - 1 >= 0)>(%{{.*}})[%[[N]]] {
    // CHECK-NEXT: affine.store
    // CHECK-NEXT: } else {
    // CHECK-NEXT: affine.store
    // CHECK-NEXT: }
    affine.if #set(%i)[%n] {
      affine.store %zero, %m[%i, 0] : memref<10x20xf32>
    } else {
      affine.store %zero, %m[0, %i] : memref<10x20xf32>
    }
    // CHECK: affine.if affine_set<() : (0 == 0)>() {
    // CHECK-NEXT: } {some_attr = true}
    affine.if affine_set<() : ()> () {
    } {some_attr = true}
  }
  // CHECK: %{{.*}} = affine.if affine_set<(d0) : (d0 == 0, d0 * -2 + 5 >= 0)>(%[[N]]) -> f32 {
  // CHECK-NEXT: affine.yield %{{.*}} : f32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: affine.yield %{{.*}} : f32
  // CHECK-NEXT: }
  %r = affine.if affine_set<(d0) : (d0 == 0, d0 * 2 <= 5)>(%n) -> f32 {
    affine.yield %zero : f32
  } else {
    affine.yield %zero : f32
  }
  // CHECK: affine.if affine_set<(d0) : (d0 >= 0)>(%[[N]]) -> (f32, index) {
  %p:2 = affine.if affine_set<(d0) : (d0 >= 0)>(%n) -> (f32, index) {
    affine.yield %zero, %n : f32, index
  } else {
    affine.yield %zero, %n : f32, index
  }
  return %r : f32
}

// CHECK-LABEL: func.func @parallel
// CHECK-SAME: (%[[N:.*]]: index, %[[M:.*]]: memref<100x100xf32>)
func.func @parallel(%n: index, %m: memref<100x100xf32>) -> (f32, f32) {
  // CHECK: affine.parallel (%[[I:.*]], %[[J:.*]]) = (0, 0) to (symbol(%[[N]]), 100) step (10, 10) {
  affine.parallel (%i, %j) = (0, 0) to (symbol(%n), 100) step (10, 10) {
    // CHECK: affine.parallel (%{{.*}}, %{{.*}}) = (%[[I]], %[[J]]) to (%[[I]] + 10, %[[J]] + 10) {
    affine.parallel (%k, %l) = (%i, %j) to (%i + 10, %j + 10) {
    }
  }
  // CHECK: affine.parallel (%{{.*}}) = (max(0, %[[N]] - 4)) to (min(%[[N]], 64)) {
  affine.parallel (%i) = (max(0, %n - 4)) to (min(%n, 64)) {
    affine.yield
  }
  // CHECK: affine.parallel () = () to () {
  affine.parallel () = () to () {
  }
  // CHECK: %{{[0-9]+}}:2 = affine.parallel (%[[A:.*]], %[[B:.*]]) = (0, 0) to (100, 100) reduce ("addf", "maximumf") -> (f32, f32) {
  %r:2 = affine.parallel (%a, %b) = (0, 0) to (100, 100) reduce ("addf", "maximumf") -> (f32, f32) {
    // CHECK: affine.load %[[M]][%[[A]], %[[B]]] : memref<100x100xf32>
    %v = affine.load %m[%a, %b] : memref<100x100xf32>
    // CHECK: affine.yield %{{.*}}, %{{.*}} : f32, f32
    affine.yield %v, %v : f32, f32
  } {some_attr}
  return %r#0, %r#1 : f32, f32
}

// CHECK-LABEL: func.func @parallel_int_reductions
func.func @parallel_int_reductions(%a: si32, %b: ui32, %c: i64) -> (si32, ui32, i64) {
  // CHECK: reduce ("maxs", "minu", "xori") -> (si32, ui32, i64)
  %r:3 = affine.parallel (%i) = (0) to (8) reduce ("maxs", "minu", "xori") -> (si32, ui32, i64) {
    affine.yield %a, %b, %c : si32, ui32, i64
  }
  return %r#0, %r#1, %r#2 : si32, ui32, i64
}

// CHECK-LABEL: func.func @load_store
// CHECK-SAME: (%[[M:.*]]: memref<10x20xf32>, %[[N:.*]]: index, %[[Z:.*]]: memref<f32>)
func.func @load_store(%m: memref<10x20xf32>, %n: index, %z: memref<f32>) {
  affine.for %i = 0 to 10 {
    affine.for %j = 0 to 10 {
      // CHECK: %[[X:.*]] = affine.load %[[M]][%[[I:.*]] + 3, symbol(%[[N]])] : memref<10x20xf32>
      %x = affine.load %m[%i + 3, symbol(%n)] : memref<10x20xf32>
      // CHECK: affine.store %[[X]], %[[M]][%[[I]], %[[J:.*]] * 2 + symbol(%[[N]]) floordiv 4] : memref<10x20xf32>
      affine.store %x, %m[%i, %j * 2 + symbol(%n) floordiv 4] : memref<10x20xf32>
      // CHECK: affine.load %[[M]][-%[[I]] + 9, (%[[J]] + 1) mod 20] {some_attr} : memref<10x20xf32>
      %y = affine.load %m[-%i + 9, (%j + 1) mod 20] {some_attr} : memref<10x20xf32>
      // CHECK: affine.load %[[M]][%[[I]] - %[[J]] * 3, %[[J]] ceildiv 2 - 1] : memref<10x20xf32>
      %w = affine.load %m[%i - %j * 3, %j ceildiv 2 - 1] : memref<10x20xf32>
    }
  }
  // CHECK: %[[V:.*]] = affine.load %[[Z]][] : memref<f32>
  %v = affine.load %z[] : memref<f32>
  // CHECK: affine.store %[[V]], %[[Z]][] : memref<f32>
  affine.store %v, %z[] : memref<f32>
  // A function argument is a valid symbol and dimension.
  // CHECK: affine.load %[[M]][%[[N]], %[[N]] + 1] : memref<10x20xf32>
  %u = affine.load %m[%n, %n + 1] : memref<10x20xf32>
  return
}

// CHECK-LABEL: func.func @vector_load_store
func.func @vector_load_store(%m: memref<100x100xf32>) {
  affine.for %i = 0 to 16 step 8 {
    // CHECK: %[[V:.*]] = affine.vector_load %{{.*}}[%[[I:.*]], %[[I]] + 8] : memref<100x100xf32>, vector<8xf32>
    %v = affine.vector_load %m[%i, %i + 8] : memref<100x100xf32>, vector<8xf32>
    // CHECK: affine.vector_store %[[V]], %{{.*}}[%[[I]] * 2, 0] : memref<100x100xf32>, vector<8xf32>
    affine.vector_store %v, %m[%i * 2, 0] : memref<100x100xf32>, vector<8xf32>
  }
  return
}

// CHECK-LABEL: func.func @apply_min_max
// CHECK-SAME: (%[[A:.*]]: index, %[[B:.*]]: index, %[[C:.*]]: index)
func.func @apply_min_max(%a: index, %b: index, %c: index) {
  // CHECK: affine.apply affine_map<(d0)[s0] -> (d0 + s0)>(%[[A]])[%[[B]]]
  %0 = affine.apply #map(%a)[%b]
  // CHECK: affine.apply affine_map<(d0, d1) -> (d0 floordiv 8 + d1 mod 128)>(%[[A]], %[[B]]) {some_attr}
  %1 = affine.apply affine_map<(d0, d1) -> (d0 floordiv 8 + d1 mod 128)> (%a, %b) {some_attr}
  // CHECK: affine.apply affine_map<() -> (42)>()
  %2 = affine.apply affine_map<() -> (42)> ()
  // CHECK: affine.min affine_map<(d0)[s0] -> (1000, d0 + 512, s0)>(%[[A]])[%[[B]]]
  %3 = affine.min affine_map<(d0)[s0] -> (1000, d0 + 512, s0)> (%a)[%b]
  // CHECK: affine.min affine_map<()[s0, s1] -> (s0 - s1, 11)>()[%[[B]], %[[C]]]
  %4 = affine.min affine_map<()[s0, s1] -> (s0 - s1, 11)> ()[%b, %c]
  // CHECK: affine.max affine_map<(d0, d1)[s0] -> (d0 - d1, s0 + 512)>(%[[A]], %[[B]])[%[[C]]]
  %5 = affine.max affine_map<(d0, d1)[s0] -> (d0 - d1, s0 + 512)> (%a, %b)[%c]
  // CHECK: affine.max affine_map<() -> (77, 78, 79)>()
  %6 = affine.max affine_map<()[] -> (77, 78, 79)> ()[]
  return
}

// CHECK-LABEL: func.func @index_ops
// CHECK-SAME: (%[[X:.*]]: index, %[[B:.*]]: index)
func.func @index_ops(%x: index, %b: index) -> (index, index) {
  // CHECK: %[[D:[0-9]+]]:2 = affine.delinearize_index %[[X]] into (4, 5) : index, index
  %d:2 = affine.delinearize_index %x into (4, 5) : index, index
  // CHECK: affine.delinearize_index %[[X]] into (%[[B]], 16) : index, index
  %e:2 = affine.delinearize_index %x into (%b, 16) : index, index
  // CHECK: affine.delinearize_index %[[X]] into (8) : index, index
  %f:2 = affine.delinearize_index %x into (8) : index, index
  // CHECK: affine.linearize_index [%[[D]]#0, %[[D]]#1] by (4, 5) : index
  %l = affine.linearize_index [%d#0, %d#1] by (4, 5) : index
  // CHECK: affine.linearize_index disjoint [%[[D]]#0, %[[D]]#1] by (%[[B]], 5) : index
  %m = affine.linearize_index disjoint [%d#0, %d#1] by (%b, 5) : index
  // CHECK: affine.linearize_index [%[[X]], %[[B]]] by (16) : index
  %n = affine.linearize_index [%x, %b] by (16) : index
  // The results of index ops on loop IVs are valid dimensions.
  affine.for %i = 0 to 20 {
    %q:2 = affine.delinearize_index %i into (4, 5) : index, index
    %v = affine.apply affine_map<(d0, d1) -> (d0 * 5 + d1)>(%q#0, %q#1)
  }
  return %l, %m : index, index
}

// CHECK-LABEL: func.func @scopes
func.func @scopes(%n: index, %m: memref<?xf32>) {
  affine.for %i = 0 to 10 {
    // Pure ops of symbols and dims of top-level memrefs are symbols anywhere.
    %c = arith.constant 3 : index
    %x = arith.muli %n, %c : index
    %d = memref.dim %m, %c : memref<?xf32>
    // CHECK: affine.load %{{.*}}[symbol(%{{.*}}) + symbol(%{{.*}})] : memref<?xf32>
    %v = affine.load %m[symbol(%x) + symbol(%d)] : memref<?xf32>
    // An affine.apply of dimensions is a dimension.
    %a = affine.apply affine_map<(d0) -> (d0 + 1)>(%i)
    // CHECK: affine.load %{{.*}}[%{{.*}} * 2] : memref<?xf32>
    %w = affine.load %m[%a * 2] : memref<?xf32>
  }
  return
}
