"""mlkit's built-in passes and pipelines, registered lazily by upstream name,
exactly as a third-party plugin registers its own."""

from __future__ import annotations

from mlkit.registry import Registry

# upstream pass name -> (module:class, one-line summary as upstream words it)
BUILTIN_PASSES: dict[str, tuple[str, str]] = {
    "canonicalize": (
        "mlkit.passes.transforms.canonicalize:Canonicalize",
        "Canonicalize operations",
    ),
    "cse": ("mlkit.passes.transforms.cse:CSE", "Eliminate common sub-expressions"),
    "buffer-deallocation-pipeline": ("mlkit.passes.transforms.buffer_deallocation:BufferDeallocationPipeline", "The default pipeline for automatically inserting deallocation operations after one-shot bufferization"),
    "one-shot-bufferize": ("mlkit.passes.transforms.bufferization.one_shot_bufferize:OneShotBufferize", "One-Shot Bufferize"),
    "linalg-generalize-named-ops": ("mlkit.passes.transforms.linalg_generalize:LinalgGeneralizeNamedOps", "Convert named ops into generic ops"),
    "convert-linalg-to-loops": ("mlkit.passes.conversion.linalg_to_loops:ConvertLinalgToLoops", "Convert the operations from the linalg dialect into loops"),
    "convert-linalg-to-affine-loops": ("mlkit.passes.conversion.linalg_to_loops:ConvertLinalgToAffineLoops", "Lower the operations from the linalg dialect into affine loops"),
    "convert-linalg-to-parallel-loops": ("mlkit.passes.conversion.linalg_to_loops:ConvertLinalgToParallelLoops", "Convert the operations from the linalg dialect into parallel loops"),
    "convert-arith-to-llvm": (
        "mlkit.passes.conversion.arith_to_llvm:ConvertArithToLLVM",
        "Convert Arith dialect to LLVM dialect",
    ),
    "convert-math-to-llvm": ("mlkit.passes.conversion.math_to_llvm:ConvertMathToLLVMPass", "Convert Math dialect to LLVM dialect"),
    "convert-index-to-llvm": (
        "mlkit.passes.conversion.index_to_llvm:ConvertIndexToLLVM",
        "Lower the `index` dialect to the `llvm` dialect.",
    ),
    "convert-math-to-libm": ("mlkit.passes.conversion.math_to_libm:ConvertMathToLibmPass", "Convert Math dialect to libm calls"),
    "convert-cf-to-llvm": (
        "mlkit.passes.conversion.cf_to_llvm:ConvertControlFlowToLLVM",
        "Convert ControlFlow operations to the LLVM dialect",
    ),
    "lower-affine": ("mlkit.passes.conversion.affine_to_std:LowerAffinePass", "Lower Affine operations to a combination of Arith and SCF operations"),
    "convert-func-to-llvm": (
        "mlkit.passes.conversion.func_to_llvm:ConvertFuncToLLVM",
        "Convert from the Func dialect to LLVM dialect",
    ),
    "finalize-memref-to-llvm": (
        "mlkit.passes.conversion.memref_to_llvm:FinalizeMemRefToLLVM",
        "Finalize MemRef dialect to LLVM dialect conversion",
    ),
    "reconcile-unrealized-casts": (
        "mlkit.passes.conversion.reconcile_unrealized_casts:ReconcileUnrealizedCasts",
        "Simplify and eliminate unrealized conversion casts",
    ),
    "convert-vector-to-llvm": ("mlkit.passes.conversion.vector_to_llvm:ConvertVectorToLLVMPass", "Lower the operations from the vector dialect into the LLVM dialect"),
    "convert-to-llvm": (
        "mlkit.passes.conversion.convert_to_llvm:ConvertToLLVM",
        "Convert to LLVM via dialect interfaces found in the input IR",
    ),
    "expand-strided-metadata": ("mlkit.passes.transforms.expand_strided_metadata:ExpandStridedMetadata", "Expand memref operations into easier to analyze constructs"),
    "symbol-dce": ("mlkit.passes.transforms.symbol_dce:SymbolDCE", "Eliminate dead symbols"),
    "inline": ("mlkit.passes.transforms.inline:InlinerPass", "Inline function calls"),
    "scf-parallel-loop-tiling": ("mlkit.passes.transforms.scf_parallel_loop_tiling:ScfParallelLoopTiling", "Tile parallel loops"),
    "gpu-map-parallel-loops": ("mlkit.passes.transforms.gpu_map_parallel_loops:GpuMapParallelLoopsPass", "Greedily maps loops to GPU hardware dimensions."),
    "convert-affine-for-to-gpu": ("mlkit.passes.conversion.affine_for_to_gpu:ConvertAffineForToGPU", "Convert top-level AffineFor Ops to GPU kernels"),
    "convert-parallel-loops-to-gpu": ("mlkit.passes.conversion.parallel_loops_to_gpu:ConvertParallelLoopToGpu", "Convert mapped scf.parallel ops to gpu launch operations"),
    "gpu-kernel-outlining": ("mlkit.passes.transforms.gpu_kernel_outlining:GpuKernelOutlining", "Outline gpu.launch bodies to kernel functions"),
    "convert-gpu-to-nvvm": ("mlkit.passes.conversion.gpu_to_nvvm:ConvertGpuOpsToNVVMOps", "Generate NVVM operations for gpu operations"),
    "nvvm-attach-target": ("mlkit.passes.transforms.nvvm_attach_target:NVVMAttachTarget", "Attaches an NVVM target attribute to a GPU Module."),
    "gpu-to-llvm": ("mlkit.passes.conversion.gpu_to_llvm:GpuToLLVMConversionPass", "Convert GPU dialect to LLVM dialect with GPU runtime calls"),
    "gpu-module-to-binary": ("mlkit.passes.transforms.gpu_module_to_binary:GpuModuleToBinaryPass", "Transforms a GPU module into a GPU binary."),
    "convert-scf-to-cf": (
        "mlkit.passes.conversion.scf_to_cf:ConvertSCFToCF",
        "Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG",
    ),
}


def register(registry: Registry) -> None:
    for name, (path, summary) in BUILTIN_PASSES.items():
        registry.register_pass(name, path, summary=summary)
    registry.register_pipeline(
        "lower-to-cpu",
        "mlkit.passes.pipelines.lower_to_cpu:LowerToCPU",
        summary="Lower tensor, linalg, affine, scf, arith, math, memref and func IR to the llvm dialect",
    )
    registry.register_pipeline(
        "lower-to-cuda",
        "mlkit.passes.pipelines.lower_to_cuda:LowerToCUDA",
        summary="Lower tensor and linalg IR to NVVM kernels in PTX and llvm-dialect host code",
    )
    registry.register_pipeline("gpu-lower-to-nvvm-pipeline", "mlkit.passes.pipelines.gpu_lower_to_nvvm:GPUToNVVMPipeline", summary="The default pipeline lowers main dialects (arith, memref, scf, vector, gpu, and nvvm) to NVVM. It starts by lowering GPU code to the specified compilation target (default is fatbin) then lowers the host code.")
    registry.register_emitter("ptx", "mlkit.target.ptx:emit_ptx", summary="PTX of every GPU kernel module")
    registry.register_emitter("llvm", "mlkit.target.emit:emit_llvm", summary="LLVM IR text")
    registry.register_emitter("asm", "mlkit.target.emit:emit_asm", summary="Target assembly (host by default)")
    registry.register_emitter("obj", "mlkit.target.emit:emit_obj", summary="Target object file (host by default)")
