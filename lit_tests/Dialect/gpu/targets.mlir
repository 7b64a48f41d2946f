// RUN: mlkit-opt %s | mlkit-opt | filecheck %s
// RUN: mlkit-opt %s --mlir-print-op-generic | mlkit-opt | filecheck %s

// gpu.module targets, offloading handlers and gpu.binary objects. Upstream
// requires each target to implement TargetAttrInterface (#nvvm.target,
// #rocdl.target); no such attribute is registered in mlkit yet, so these use
// an address space as a stand-in target and are mlkit-only (not read by
// upstream in tests/test_dialect_gpu.py).

// CHECK-LABEL: gpu.module @t [#gpu.address_space<global>] {
gpu.module @t [#gpu.address_space<global>] {
}

// CHECK-LABEL: gpu.module @h<#gpu.select_object<1 : i64>> [#gpu.address_space<global>, #gpu.address_space<private>] attributes {foo} {
gpu.module @h <#gpu.select_object<1 : i64>> [#gpu.address_space<global>, #gpu.address_space<private>] attributes {foo} {
}

// CHECK: gpu.binary @b [#gpu.object<#gpu.address_space<global>, "BLOB">]
gpu.binary @b [#gpu.object<#gpu.address_space<global>, "BLOB">]

// CHECK: gpu.binary @c <#gpu.select_object<0 : i64>> {x} [#gpu.object<#gpu.address_space<global>, properties = {O = 3 : i32}, bin = "x">, #gpu.object<#gpu.address_space<global>, offload = "y">]
gpu.binary @c <#gpu.select_object<0 : i64>> {x} [#gpu.object<#gpu.address_space<global>, properties = {O = 3 : i32}, bin = "x">, #gpu.object<#gpu.address_space<global>, offload = "y">]

// Objects are bytes: text, UTF-8 and bytes that are not UTF-8 all print as
// they were written, one escape per non-printable byte.
// CHECK: gpu.binary @bytes [#gpu.object<#gpu.address_space<global>, assembly = "//\0A.entry k\09\C3\A9">, #gpu.object<#gpu.address_space<global>, bin = "\7FELF\BE\00\FF">]
gpu.binary @bytes [#gpu.object<#gpu.address_space<global>, assembly = "//\0A.entry k\09\C3\A9">, #gpu.object<#gpu.address_space<global>, bin = "\7FELF\BE\00\FF">]
