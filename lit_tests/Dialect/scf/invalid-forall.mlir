// RUN: mlkit-opt %s --split-input-file --verify-diagnostics

// scf.forall and its scf.forall.in_parallel terminator.

func.func @more_types_than_outs(%t: tensor<8xi32>) {
  // expected-error @+1 {{custom op 'scf.forall' number of operands and types do not match: got 1 operands and 2 types}}
  %r:2 = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xi32>, tensor<8xi32>) {
  }
  return
}

// -----

func.func @insert_into_captured(%t: tensor<8xi32>, %u: tensor<8xi32>) {
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xi32>) {
    %piece = tensor.extract_slice %u[%i] [1] [1] : tensor<8xi32> to tensor<1xi32>
    scf.forall.in_parallel {
      // expected-error @+1 {{'tensor.parallel_insert_slice' op may only insert into an output block argument}}
      tensor.parallel_insert_slice %piece into %u[%i] [1] [1] : tensor<1xi32> into tensor<8xi32>
    }
  }
  return
}

// -----

func.func @other_op_in_terminator(%t: tensor<8xi32>) {
  %r = scf.forall (%i) in (8) shared_outs(%o = %t) -> (tensor<8xi32>) {
    // expected-error @+1 {{'scf.forall.in_parallel' op expected only ParallelCombiningOpInterface ops}}
    scf.forall.in_parallel {
      %c = arith.constant 0 : index
    }
  }
  return
}

// -----

func.func @ends_in_foreign_terminator() {
  // expected-error @+2 {{'scf.forall' op expects regions to end with 'scf.forall.in_parallel', found 'llvm.unreachable'}}
  // expected-note @+1 {{in custom textual format, the absence of terminator implies 'scf.forall.in_parallel'}}
  scf.forall (%i, %j) in (2, 3) {
    llvm.unreachable
  }
  return
}

// -----

func.func @mapping_longer_than_rank() {
  // expected-error @+1 {{'scf.forall' op mapping attribute size must match op rank}}
  scf.forall (%i) in (4) {
  } {mapping = [#gpu.thread<x>, #gpu.thread<y>]}
  return
}
