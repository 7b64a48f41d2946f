// RUN: mlkit-opt %s --load-plugin=%S/Inputs/toy_plugin.py | filecheck %s --check-prefix=ROUNDTRIP
// RUN: mlkit-opt %s --load-dialect-plugin=%S/Inputs/toy_plugin.py -toy-fold | filecheck %s --check-prefix=FOLD
// RUN: mlkit-opt %s --load-pass-plugin %S/Inputs/toy_plugin.py -toy-fold=factor=5 | filecheck %s --check-prefix=FACTOR
// RUN: mlkit-opt %s --load-plugin=%S/Inputs/toy_plugin.py -p 'builtin.module(toy-fold{factor=3},cse)' | filecheck %s --check-prefix=PIPE
// RUN: mlkit-opt %s --load-plugin=%S/Inputs/toy_plugin.py --load-plugin=%S/Inputs/toy_plugin.py | filecheck %s --check-prefix=ROUNDTRIP
// RUN: mlkit-opt --load-plugin=%S/Inputs/toy_plugin.py --help | filecheck %s --check-prefix=HELP
// RUN: mlkit-opt --load-plugin=%S/Inputs/toy_plugin.py --list-passes | filecheck %s --check-prefix=LIST
// RUN: mlkit-opt --load-plugin=%S/Inputs/toy_plugin.py --show-dialects | filecheck %s --check-prefix=DIALECTS
// RUN: not mlkit-opt %s -toy-fold 2>&1 | filecheck %s --check-prefix=NOPLUGIN

// ROUNDTRIP: %[[C:.*]] = toy.const 3
// ROUNDTRIP-NEXT: toy.double %[[C]]
// FOLD: toy.const 6
// FOLD-NOT: toy.double
// FACTOR: toy.const 15
// PIPE: toy.const 9
// HELP: --toy-fold {{ *}} - Fold toy.double of a constant.
// LIST: toy-fold
// LIST-NEXT: Fold toy.double of a constant.
// LIST-NEXT: --factor=<int> (default: 2)
// DIALECTS: toy
// NOPLUGIN: Unknown command line argument '-toy-fold'
%0 = toy.const 3
%1 = toy.double %0
