// RUN: mlkit-translate --mlir-to-llvmir --split-input-file --verify-diagnostics %s

// Host GPU ops the translation cannot turn into runtime calls.

module attributes {gpu.container_module} {
  gpu.module @kernels {  // expected-error {{cannot translate 'gpu.module' to LLVM IR: serialize the kernel module with gpu-module-to-binary first}}
  }
}

// -----

module attributes {gpu.container_module} {
  gpu.binary @kernels [#gpu.object<#nvvm.target, "BLOB">]
  llvm.func @async() {
    %0 = llvm.mlir.constant(1 : index) : i64
    // expected-error @below {{cannot translate 'gpu.launch_func' to LLVM IR: async tokens must be lowered by gpu-to-llvm first}}
    %1 = gpu.launch_func async @kernels::@k blocks in (%0, %0, %0) threads in (%0, %0, %0) : i64
    llvm.return
  }
}

// -----

module {
  // expected-error @below {{cannot translate 'gpu.binary' to LLVM IR: the requested target object couldn't be found}}
  gpu.binary @kernels <#gpu.select_object<3>> [#gpu.object<#nvvm.target, "BLOB">]
}

// -----

module {
  // expected-error @below {{cannot translate 'gpu.binary' to LLVM IR: the optimization level must be an integer}}
  gpu.binary @kernels [#gpu.object<#nvvm.target, properties = {O = "fast"}, assembly = "PTX">]
}
