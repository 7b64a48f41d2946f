"""Translation of the llvm dialect to LLVM IR text, as upstream's
``mlir-translate --mlir-to-llvmir``: the module (:mod:`.module`), function
bodies (:mod:`.function`), instructions (:mod:`.ops`), attributes, types,
global initializers and intrinsics; other dialects plug in through
:mod:`.interface` and never by name."""
