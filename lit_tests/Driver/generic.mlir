// RUN: mlkit-opt %s --mlir-print-op-generic | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s --check-prefix=CUSTOM

// CHECK: "func.func"() <{function_type = (i32) -> i32, sym_name = "id"}>
// CHECK:   "func.return"(%{{.*}}) : (i32) -> ()
// CUSTOM: func.func @id(%{{.*}}: i32) -> i32
func.func @id(%a: i32) -> i32 {
  return %a : i32
}
