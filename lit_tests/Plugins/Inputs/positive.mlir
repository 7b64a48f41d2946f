%0 = toy.const 2
