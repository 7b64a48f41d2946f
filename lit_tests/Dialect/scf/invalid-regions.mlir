// RUN: mlkit-opt %s --split-input-file --verify-diagnostics --allow-unregistered-dialect

// scf.for, scf.yield, scf.execute_region and scf.index_switch, checked as upstream does.

func.func @fewer_inits_than_types(%n: index, %x: i64) {
  // expected-error @+1 {{custom op 'scf.for' mismatch in number of loop-carried values and defined values}}
  %r:2 = scf.for %i = %n to %n step %n
      iter_args(%a = %x) -> (i64, i64) {
    scf.yield %a, %a : i64, i64
  }
  return
}

// -----

func.func @yield_in_foreign_op() {
  "mine.region"() ({
    // expected-error @+1 {{'scf.yield' op expects parent op to be one of 'scf.execute_region, scf.for, scf.if, scf.index_switch, scf.while'}}
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @execute_region_with_argument() {
  // expected-error @+1 {{'scf.execute_region' op region cannot have any arguments}}
  "scf.execute_region"() ({
  ^bb0(%x: index):
    scf.yield
  }) : () -> ()
  return
}

// -----

func.func @switch_case_yields_too_much(%k: index, %v: i64) {
  // expected-error @+1 {{'scf.index_switch' op expected each region to return 0 values, but case region #0 returns 1}}
  scf.index_switch %k
  case 7 {
    // expected-note @+1 {{see yield operation here}}
    scf.yield %v : i64
  }
  default {
  }
  return
}

// -----

func.func @switch_default_yields_other_type(%k: index, %v: i64) {
  // expected-error @+1 {{'scf.index_switch' op expected result #0 of each region to be 'index'}}
  %r = scf.index_switch %k -> index
  default {
    // expected-note @+1 {{default region returns 'i64' here}}
    scf.yield %v : i64
  }
  return
}

// -----

func.func @switch_case_ends_in_return(%k: index) {
  // expected-error @+1 {{'scf.index_switch' op expected region to end with scf.yield, but got func.return}}
  "scf.index_switch"(%k) ({
    "scf.yield"() : () -> ()
  }, {
    func.return
  }) {cases = array<i64: 4>} : (index) -> ()
  return
}
