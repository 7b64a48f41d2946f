// arith-expand: ceildivui, ceildivsi and floordivsi in simpler arith ops, on
// scalars, vectors and index; with include-bf16, bf16 extf/truncf as integer
// bit operations. Other ops are left alone.
// RUN: mlkit-opt %s -p 'builtin.module(arith-expand)' --split-input-file | filecheck %s
// RUN: mlkit-opt %s -p 'builtin.module(arith-expand{include-bf16=true})' --split-input-file | filecheck %s --check-prefix=BF16

// CHECK-LABEL: func.func @ceildivui
// CHECK-SAME: (%[[A:.*]]: i32, %[[B:.*]]: i32)
// CHECK-NEXT:   %[[Z:.*]] = arith.constant 0 : i32
// CHECK-NEXT:   %[[EQ:.*]] = arith.cmpi eq, %[[A]], %[[Z]] : i32
// CHECK-NEXT:   %[[ONE:.*]] = arith.constant 1 : i32
// CHECK-NEXT:   %[[M:.*]] = arith.subi %[[A]], %[[ONE]] : i32
// CHECK-NEXT:   %[[Q:.*]] = arith.divui %[[M]], %[[B]] : i32
// CHECK-NEXT:   %[[P:.*]] = arith.addi %[[Q]], %[[ONE]] : i32
// CHECK-NEXT:   arith.select %[[EQ]], %[[Z]], %[[P]] : i32
func.func @ceildivui(%a: i32, %b: i32) -> i32 {
  %0 = arith.ceildivui %a, %b : i32
  return %0 : i32
}

// -----

// CHECK-LABEL: func.func @ceildivsi
// CHECK-SAME: (%[[A:.*]]: index, %[[B:.*]]: index)
// CHECK:        %[[Q:.*]] = arith.divsi %[[A]], %[[B]] : index
// CHECK-NEXT:   %[[P:.*]] = arith.muli %[[Q]], %[[B]] : index
// CHECK-NEXT:   %[[NE:.*]] = arith.cmpi ne, %[[A]], %[[P]] : index
// CHECK:        %[[SAME:.*]] = arith.cmpi eq, %{{.*}}, %{{.*}} : i1
// CHECK-NEXT:   %[[C:.*]] = arith.andi %[[NE]], %[[SAME]] : i1
// CHECK-NEXT:   %[[UP:.*]] = arith.addi %[[Q]], %{{.*}} : index
// CHECK-NEXT:   arith.select %[[C]], %[[UP]], %[[Q]] : index
func.func @ceildivsi(%a: index, %b: index) -> index {
  %0 = arith.ceildivsi %a, %b : index
  return %0 : index
}

// -----

// CHECK-LABEL: func.func @floordivsi
// CHECK:        arith.divsi %{{.*}}, %{{.*}} : vector<4xi64>
// CHECK:        arith.cmpi ne, %{{.*}}, %{{.*}} : vector<4xi1>
// CHECK:        %[[M1:.*]] = arith.constant dense<-1> : vector<4xi64>
// CHECK-NEXT:   arith.addi %{{.*}}, %[[M1]] : vector<4xi64>
// CHECK-NEXT:   arith.select %{{.*}} : vector<4xi1>, vector<4xi64>
func.func @floordivsi(%a: vector<4xi64>, %b: vector<4xi64>) -> vector<4xi64> {
  %0 = arith.floordivsi %a, %b : vector<4xi64>
  return %0 : vector<4xi64>
}

// -----

// Without include-bf16 the casts stay; other ops always do.
// CHECK-LABEL: func.func @bf16
// CHECK:        arith.extf %{{.*}} : bf16 to f32
// CHECK:        arith.truncf %{{.*}} : f32 to bf16
// CHECK:        arith.extf %{{.*}} : f16 to f32
// CHECK:        arith.divsi
// BF16-LABEL: func.func @bf16
// BF16-SAME: (%[[H:.*]]: bf16, %[[X:.*]]: f32
// BF16-NEXT:   %[[BITS:.*]] = arith.bitcast %[[H]] : bf16 to i16
// BF16-NEXT:   %[[WIDE:.*]] = arith.extui %[[BITS]] : i16 to i32
// BF16-NEXT:   %[[C16:.*]] = arith.constant 16 : i32
// BF16-NEXT:   %[[SH:.*]] = arith.shli %[[WIDE]], %[[C16]] : i32
// BF16-NEXT:   arith.bitcast %[[SH]] : i32 to f32
// BF16-NEXT:   %[[NAN:.*]] = arith.cmpf une, %[[X]], %[[X]] : f32
// BF16:        %[[QNAN:.*]] = arith.constant 32704 : i16
// BF16:        %[[T:.*]] = arith.trunci %{{.*}} : i32 to i16
// BF16-NEXT:   %[[S:.*]] = arith.select %[[NAN]], %[[QNAN]], %[[T]] : i16
// BF16-NEXT:   arith.bitcast %[[S]] : i16 to bf16
// BF16:        arith.extf %{{.*}} : f16 to f32
func.func @bf16(%h: bf16, %x: f32, %g: f16, %i: i32) -> (f32, bf16, f32, i32) {
  %0 = arith.extf %h : bf16 to f32
  %1 = arith.truncf %x : f32 to bf16
  %2 = arith.extf %g : f16 to f32
  %3 = arith.divsi %i, %i : i32
  return %0, %1, %2, %3 : f32, bf16, f32, i32
}
