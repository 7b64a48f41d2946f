"""The LLVM IR translations of dialects other than llvm (gpu, nvvm), each an
``LLVMTranslationDialectInterface`` registered by :mod:`mlkit.target`."""
