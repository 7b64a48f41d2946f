// RUN: mlkit-opt %s -split-input-file -buffer-deallocation-pipeline --verify-diagnostics

func.func @already_freed() {
  %a = memref.alloc() : memref<4xf32>
  // expected-error @+1 {{No deallocation operations must be present when running this pass!}}
  memref.dealloc %a : memref<4xf32>
  return
}

// -----

func.func @blocks(%c: i1) {
  // expected-error @+1 {{buffers in functions with several blocks are not supported}}
  %a = memref.alloc() : memref<4xf32>
  cf.cond_br %c, ^bb1, ^bb1
^bb1:
  return
}
