// no expectations here
func.func @f() -> i32 {
  %0 = arith.constant 1 : i64
  // an unexpected verifier error
  return %0 : i64
}

// -----

func.func @g() {
  // expected-error @+1 {{this is never emitted}}
  return
}
