// RUN: mlkit-opt %s --load-plugin=%S/../Plugins/Inputs/toy_plugin.py -toy-report --verify-diagnostics --split-input-file

// Remarks and warnings emitted by a pass, with every line designator.

// expected-remark @below {{constant 3}}
%0 = toy.const 3
%1 = toy.const 0 // expected-remark {{constant 0}}
// expected-warning @above {{zero constant}}
// expected-remark-re @+1 {{constant {{[0-9]+}}}}
%2 = toy.const 5
%3 = toy.const 6
// expected-remark @-1 {{constant 6}}

// -----

// Stacked @below designators all target the next non-directive line.
// expected-remark @below {{constant 0}}
// expected-warning @below {{zero}}
%0 = toy.const 0
