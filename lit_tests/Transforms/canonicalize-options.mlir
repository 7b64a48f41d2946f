// canonicalize's upstream options: region-simplify=disabled keeps dead
// blocks; max-iterations bounds the pattern/simplify rounds, and with
// test-convergence the pass fails when they are not enough; top-down=false
// seeds the worklist bottom-up and reaches the same fixed point, as does
// region-simplify=aggressive; a value outside the three is rejected.
// RUN: mlkit-opt %s -p 'builtin.module(canonicalize)' | filecheck %s --check-prefix=NORMAL
// RUN: mlkit-opt %s -p 'builtin.module(canonicalize{top-down=false})' | filecheck %s --check-prefix=NORMAL
// RUN: mlkit-opt %s -p 'builtin.module(canonicalize{region-simplify=disabled})' | filecheck %s --check-prefix=DISABLED
// RUN: not mlkit-opt %s -p 'builtin.module(canonicalize{max-iterations=1 test-convergence})' 2>&1 | filecheck %s --check-prefix=CONVERGE
// RUN: mlkit-opt %s -p 'builtin.module(canonicalize{max-iterations=1})' | filecheck %s --check-prefix=ONE
// RUN: mlkit-opt %s -p 'builtin.module(canonicalize{region-simplify=aggressive})' | filecheck %s --check-prefix=NORMAL
// RUN: not mlkit-opt %s -p 'builtin.module(canonicalize{region-simplify=always})' 2>&1 | filecheck %s --check-prefix=BAD

// NORMAL-LABEL: func.func @f
// NORMAL-NEXT:    return %arg1 : i32
// NORMAL-NEXT:  }

// DISABLED-LABEL: func.func @f
// DISABLED:         return
// DISABLED:       ^{{.*}}:
// DISABLED-NEXT:    %{{.*}} = arith.addi

// CONVERGE: canonicalize-options.mlir:{{[0-9]+}}:{{[0-9]+}}: error: canonicalizer did not converge within 1 iterations

// One round: both predecessors pass %arg1, so the merge block's argument is
// already gone (as in upstream's first round).
// ONE-LABEL: func.func @f
// ONE-NEXT:    cf.br ^bb1
// ONE-NEXT:  ^bb1:
// ONE-NEXT:    return %arg1 : i32

// BAD: invalid value 'always' for option 'region-simplify' of pass 'canonicalize': expected one of disabled|normal|aggressive
func.func @f(%c: i1, %x: i32) -> i32 {
  cf.cond_br %c, ^a, ^b
^a:
  cf.br ^m(%x : i32)
^b:
  cf.br ^m(%x : i32)
^m(%z: i32):
  return %z : i32
^dead:
  %y = arith.addi %x, %x : i32
  return %y : i32
}
