// RUN: not mlkit-opt %s --load-plugin=%S/Inputs/broken_plugin.py 2>&1 | filecheck %s --check-prefix=SYNTAX
// RUN: not mlkit-opt %s --load-plugin=%S/Inputs/clash_plugin.py 2>&1 | filecheck %s --check-prefix=CLASH
// RUN: not mlkit-opt %s --load-plugin=%S/Inputs/no_register.py 2>&1 | filecheck %s --check-prefix=NOREG
// RUN: not mlkit-opt %s --load-plugin=%S/Inputs/does_not_exist.py 2>&1 | filecheck %s --check-prefix=MISSING
// RUN: not mlkit-opt %s --load-plugin=no_such_plugin_module 2>&1 | filecheck %s --check-prefix=MODULE

// SYNTAX: broken_plugin.py:1:{{[0-9]+}}: error: invalid plugin: expected ':'
// CLASH: error: plugin '{{.*}}clash_plugin.py': pass 'cse' is already registered by plugin 'passes' (mlkit.passes)
// NOREG: error: plugin '{{.*}}no_register.py' has no register(registry) function
// MISSING: error: cannot load plugin '{{.*}}does_not_exist.py': no such file
// MODULE: error: cannot load plugin 'no_such_plugin_module': No module named 'no_such_plugin_module'
// CHECK-NOT: Traceback
func.func @f() {
  return
}
