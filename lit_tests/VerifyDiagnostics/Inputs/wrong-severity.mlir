// expected-warning @+1 {{constant 1}}
%0 = toy.const 1
