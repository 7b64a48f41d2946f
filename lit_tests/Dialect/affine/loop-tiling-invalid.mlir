// affine-loop-tile's options are unsigned, as upstream's are: a negative
// value, a value that is not a number, or a tile size of 0 in `tile-sizes`
// is a located error before anything is rewritten.
// RUN: not mlkit-opt %s -affine-loop-tile="tile-size=-1" -o /dev/null 2>&1 | filecheck %s --check-prefix=NEG
// RUN: not mlkit-opt %s -affine-loop-tile="tile-sizes=4,-2" -o /dev/null 2>&1 | filecheck %s --check-prefix=NEGS
// RUN: not mlkit-opt %s -affine-loop-tile="cache-size=-8" -o /dev/null 2>&1 | filecheck %s --check-prefix=CACHE
// RUN: not mlkit-opt %s -affine-loop-tile="tile-sizes=4,0" -o /dev/null 2>&1 | filecheck %s --check-prefix=ZERO
// RUN: not mlkit-opt %s -affine-loop-tile="tile-size=big" -o /dev/null 2>&1 | filecheck %s --check-prefix=WORD
// RUN: not mlkit-opt %s -p 'builtin.module(func.func(affine-loop-tile{separate=maybe}))' -o /dev/null 2>&1 | filecheck %s --check-prefix=BOOL

// NEG: <pass-pipeline>:1:1: error: invalid options for pass 'affine-loop-tile': for the --tile-size option: '-1' value invalid for uint argument!
// NEGS: error: invalid options for pass 'affine-loop-tile': for the --tile-sizes option: '-2' value invalid for uint argument!
// CACHE: error: invalid options for pass 'affine-loop-tile': for the --cache-size option: '-8' value invalid for ulong argument!
// ZERO: error: invalid options for pass 'affine-loop-tile': for the --tile-sizes option: a tile size must be positive
// WORD: error: invalid value 'big' for option 'tile-size' of pass 'affine-loop-tile': expected an integer
// BOOL: <pass-pipeline>:1:26: error: invalid value 'maybe' for option 'separate' of pass 'affine-loop-tile'
// BOOL-NEXT: builtin.module(func.func(affine-loop-tile{separate=maybe}))
// BOOL-NEXT: {{^                         \^}}

func.func @f() {
  affine.for %i = 0 to 8 {
  }
  return
}
