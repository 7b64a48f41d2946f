// RUN: not mlkit-opt %s -linalg-block-pack-matmul="block-factors=32,16,64 mnk-order=0,0,1" -o /dev/null 2>&1 \
// RUN:   | filecheck %s --check-prefix=ORDER
// RUN: not mlkit-opt %s -linalg-block-pack-matmul="block-factors=32,16,64 mnk-order=1,0" -o /dev/null 2>&1 \
// RUN:   | filecheck %s --check-prefix=ORDER
// RUN: not mlkit-opt %s -linalg-block-pack-matmul="block-factors=32,16,64 mnk-padded-multiples=64,64" -o /dev/null 2>&1 \
// RUN:   | filecheck %s --check-prefix=MULT
// RUN: not mlkit-opt %s -linalg-block-pack-matmul="block-factors=32,16,64 mnk-padded-multiples=64,-1,64" -o /dev/null 2>&1 \
// RUN:   | filecheck %s --check-prefix=NEG
// RUN: not mlkit-opt %s -linalg-block-pack-matmul="block-factors=32,0,64" -o /dev/null 2>&1 \
// RUN:   | filecheck %s --check-prefix=ZERO

// Options upstream's pass asserts on are rejected before anything is
// rewritten.
// ORDER: error: invalid options for pass 'linalg-block-pack-matmul': mnk-order must be a permutation of 0,1,2
// MULT: error: invalid options for pass 'linalg-block-pack-matmul': mnk-padded-multiples must have three values
// NEG: error: invalid options for pass 'linalg-block-pack-matmul': mnk-padded-multiples must not be negative
// ZERO: error: invalid options for pass 'linalg-block-pack-matmul': block-factors must be positive

func.func @f(%a: tensor<64x64xf32>, %b: tensor<64x64xf32>, %c: tensor<64x64xf32>) -> tensor<64x64xf32> {
  %0 = linalg.matmul ins(%a, %b : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
  return %0 : tensor<64x64xf32>
}
