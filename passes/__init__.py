"""mlkit's built-in passes and named pipelines, registered exactly as a
third-party plugin registers its own.

The tables below list classes (``module:Class`` under ``mlkit.passes``); each
class carries its upstream name (``name``) and its summary (its docstring's
first line). So that registering imports no pass module, ``catalogue.json``
records those names and summaries; it is generated from these tables by
``python -m mlkit.passes`` and a test fails when it is stale.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mlkit.registry import Registry, RegistryError, first_doc_line, import_object

PASSES: tuple[str, ...] = (
    "conversion.affine_for_to_gpu:ConvertAffineForToGPU",
    "conversion.affine_to_std:LowerAffinePass",
    "conversion.arith_to_llvm:ConvertArithToLLVM",
    "conversion.bufferization_to_memref:ConvertBufferizationToMemRef",
    "conversion.cf_to_llvm:ConvertControlFlowToLLVM",
    "conversion.convert_to_llvm:ConvertToLLVM",
    "conversion.elementwise_to_linalg:ConvertElementwiseToLinalgPass",
    "conversion.func_to_llvm:ConvertFuncToLLVM",
    "conversion.gpu_to_llvm:GpuToLLVMConversionPass",
    "conversion.gpu_to_nvvm:ConvertGpuOpsToNVVMOps",
    "conversion.index_to_llvm:ConvertIndexToLLVM",
    "conversion.linalg_matmul_to_microkernel:LinalgMatmulToMicrokernel",
    "conversion.linalg_pack_unpack_to_loops:ConvertLinalgPackUnpackToLoops",
    "conversion.linalg_to_loops:ConvertLinalgToAffineLoops",
    "conversion.linalg_to_loops:ConvertLinalgToLoops",
    "conversion.linalg_to_loops:ConvertLinalgToParallelLoops",
    "conversion.linalg_to_std:ConvertLinalgToStandardPass",
    "conversion.linalg_to_vector_loops:LinalgVectorizeLoops",
    "conversion.math_to_libm:ConvertMathToLibmPass",
    "conversion.math_to_llvm:ConvertMathToLLVMPass",
    "conversion.memref_to_llvm:FinalizeMemRefToLLVM",
    "conversion.openmp_to_llvm:ConvertOpenMPToLLVMPass",
    "conversion.parallel_loops_to_gpu:ConvertParallelLoopToGpu",
    "conversion.reconcile_unrealized_casts:ReconcileUnrealizedCasts",
    "conversion.scf_to_cf:ConvertSCFToCF",
    "conversion.scf_to_openmp:ConvertSCFToOpenMPPass",
    "conversion.vector_to_llvm:ConvertVectorToLLVMPass",
    "conversion.vector_to_scf:ConvertVectorToSCFPass",
    "transforms.affine_loop_tile:AffineLoopTiling",
    "transforms.buffer_deallocation:BufferDeallocationPipeline",
    "transforms.buffer_hoisting:BufferHoisting",
    "transforms.buffer_loop_hoisting:BufferLoopHoisting",
    "transforms.arith_expand:ArithExpandOps",
    "transforms.bufferization.one_shot_bufferize:OneShotBufferize",
    "transforms.canonicalize:Canonicalize",
    "transforms.cse:CSE",
    "transforms.expand_strided_metadata:ExpandStridedMetadata",
    "transforms.generate_runtime_verification:GenerateRuntimeVerification",
    "transforms.gpu_kernel_outlining:GpuKernelOutlining",
    "transforms.gpu_kernels_to_host:GpuKernelsToHost",
    "transforms.gpu_launch_sink_index_computations:GpuLaunchSinkIndexComputations",
    "transforms.gpu_map_parallel_loops:GpuMapParallelLoopsPass",
    "transforms.gpu_map_reductions_to_blocks:GpuMapReductionsToBlocks",
    "transforms.gpu_module_to_binary:GpuModuleToBinaryPass",
    "transforms.gpu_stage_matmul_tiles:GpuStageMatmulTiles",
    "transforms.gpu_tile_parallel_loops:GpuTileParallelLoops",
    "transforms.inline:InlinerPass",
    "transforms.linalg_block_pack_matmul:LinalgBlockPackMatmul",
    "transforms.linalg_decompose_aggregated_ops:LinalgDecomposeAggregatedOps",
    "transforms.linalg_fuse_elementwise_ops:LinalgElementwiseOpFusionPass",
    "transforms.linalg_generalize:LinalgGeneralizeNamedOps",
    "transforms.linalg_inline_scalar_operands:LinalgInlineScalarOperandsPass",
    "transforms.loop_invariant_code_motion:LoopInvariantCodeMotion",
    "transforms.math_polynomial_approximation:MathPolynomialApproximation",
    "transforms.nvvm_attach_target:NVVMAttachTarget",
    "transforms.promote_buffers_to_stack:PromoteBuffersToStack",
    "transforms.scf_forall_to_for:ScfForallToFor",
    "transforms.scf_forall_to_parallel:ScfForallToParallel",
    "transforms.scf_parallel_loop_tiling:ScfParallelLoopTiling",
    "transforms.symbol_dce:SymbolDCE",
    "transforms.transform_erase_schedule:TransformEraseSchedule",
    "transforms.transform_interpreter:TransformInterpreter",
)

PIPELINES: tuple[str, ...] = (
    "pipelines.gpu_lower_to_nvvm:GPUToNVVMPipeline",
    "pipelines.lower_to_cpu:LowerToCPU",
    "pipelines.lower_to_cuda:LowerToCUDA",
)

CATALOGUE = Path(__file__).with_name("catalogue.json")


def register(registry: Registry) -> None:
    catalogue = json.loads(CATALOGUE.read_text())
    for kind, add in (("passes", registry.register_pass), ("pipelines", registry.register_pipeline)):
        for name, path, summary in catalogue[kind]:
            add(name, _loader(name, path), summary=summary)


def _loader(name: str, path: str) -> Callable[[], type[Any]]:
    def load() -> type[Any]:
        cls = import_object(f"mlkit.passes.{path}")
        if cls.name != name:  # a stale catalogue must not run one pass as another
            raise RegistryError(f"catalogue.json is stale: {path} is '{cls.name}', not '{name}'")
        return cls

    return load


def build_catalogue() -> dict[str, list[list[str]]]:
    """Each table entry's ``[name, path, summary]``, read off its class."""

    def entries(paths: tuple[str, ...]) -> list[list[str]]:
        rows = []
        for path in paths:
            cls = import_object(f"mlkit.passes.{path}")
            rows.append([cls.name, path, first_doc_line(cls)])
        return sorted(rows)

    return {"passes": entries(PASSES), "pipelines": entries(PIPELINES)}


def catalogue_text() -> str:
    """``catalogue.json`` as written: one entry a line, so diffs stay readable."""
    kinds = [
        f'"{kind}": [\n  ' + ",\n  ".join(json.dumps(row) for row in rows) + "\n ]"
        for kind, rows in build_catalogue().items()
    ]
    return "{\n " + ",\n ".join(kinds) + "\n}\n"
