"""Upstream MLIR's result-name hints (``OpAsmOpInterface::getAsmResultNames``).

mlir-opt never keeps the SSA names of its input: it numbers values and names
the results of some ops after what they compute (``%c0``, ``%cst``,
``%alloc``, ``%extracted_slice``). Printing the same names lets upstream
FileCheck lines that spell them out run unchanged. An op class can define
``asm_result_name(self) -> str | None`` to name its own results; this table
covers the ops whose classes come from xDSL or do not define it.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IndexType, IntegerAttr, IntegerType
from xdsl.ir import Attribute, Operation

FIXED_NAMES: dict[str, str] = {
    "memref.alloc": "alloc",
    "memref.alloca": "alloca",
    "memref.cast": "cast",
    "memref.dim": "dim",
    "memref.subview": "subview",
    "memref.reinterpret_cast": "reinterpret_cast",
    "memref.collapse_shape": "collapse_shape",
    "memref.expand_shape": "expand_shape",
    "memref.view": "view",
    "memref.transpose": "transpose",
    "memref.memory_space_cast": "memspacecast",
    "memref.realloc": "realloc",
    "memref.extract_aligned_pointer_as_index": "intptr",
    "tensor.extract": "extracted",
    "tensor.insert": "inserted",
    "tensor.extract_slice": "extracted_slice",
    "tensor.insert_slice": "inserted_slice",
    "tensor.cast": "cast",
    "tensor.dim": "dim",
    "tensor.collapse_shape": "collapsed",
    "tensor.expand_shape": "expanded",
    "tensor.pad": "padded",
    "tensor.generate": "generated",
    "tensor.splat": "splat",
    "tensor.from_elements": "from_elements",
    "tensor.reshape": "reshape",
    "tensor.rank": "rank",
    "tensor.concat": "concat",
}


_DIMENSION_OPS = {
    "gpu.thread_id": "thread_id",
    "gpu.block_id": "block_id",
    "gpu.block_dim": "block_dim",
    "gpu.grid_dim": "grid_dim",
    "gpu.global_id": "global_id",
    "gpu.cluster_id": "cluster_id",
    "gpu.cluster_dim": "cluster_dim",
}


def _type_suffix(t: Attribute) -> str:
    if isinstance(t, IndexType):
        return ""
    if isinstance(t, IntegerType):
        return f"_i{t.width.data}"
    return ""


def _constant_name(value: Attribute) -> str:
    if isinstance(value, IntegerAttr):
        if isinstance(value.type, IntegerType) and value.type.width.data == 1:
            return "true" if value.value.data else "false"
        return f"c{value.value.data}{_type_suffix(value.type)}"
    return "cst"


# Transform ops name their results after their ODS result names; the last
# group takes whatever results are left (``%loops:2``).
_TRANSFORM_RESULTS: dict[str, tuple[str, ...]] = {
    "transform.structured.tile_using_for": ("tiled_linalg_op", "loops"),
    "transform.structured.tile_using_forall": ("tiled_op", "forall_op"),
    "transform.structured.fuse": ("transformed", "loops"),
}


def result_groups(op: Operation) -> list[tuple[str, int]] | None:
    """(name, count) per named group of results, for ops that name several
    results (a group of more than one prints as ``%sizes:2``), else None."""
    if (names := _TRANSFORM_RESULTS.get(op.name)) is not None:
        rest = len(op.results) - len(names) + 1
        groups = [(name, 1) for name in names[:-1]] + [(names[-1], rest)]
        return [g for g in groups if g[1] > 0] if rest >= 0 else None
    if op.name == "gpu.shuffle" and len(op.results) == 2:
        return [("shuffleResult", 1), ("valid", 1)]
    if op.name == "gpu.rotate" and len(op.results) == 2:
        return [("rotateResult", 1), ("valid", 1)]
    if op.name == "math.sincos" and len(op.results) == 2:
        return [("sin", 1), ("cos", 1)]
    if op.name == "memref.extract_strided_metadata" and len(op.results) >= 2:
        rank = (len(op.results) - 2) // 2
        groups = [("base_buffer", 1), ("offset", 1)]
        return groups + [("sizes", rank), ("strides", rank)] if rank else groups
    return None


def result_name(op: Operation) -> str | None:
    """The name upstream gives ``op``'s results, or None for plain numbering."""
    custom = getattr(op, "asm_result_name", None)
    if callable(custom):
        return custom()
    name = op.name
    if name == "arith.constant":
        value = op.properties.get("value")
        if value is None:
            value = op.attributes.get("value")
        return _constant_name(value) if value is not None else None
    if name == "index.constant":
        value = op.properties.get("value")
        return f"idx{value.value.data}" if isinstance(value, IntegerAttr) else None
    if name == "index.bool.constant":
        value = op.properties.get("value")
        return ("true" if value.value.data else "false") if isinstance(value, IntegerAttr) else None
    if name in _DIMENSION_OPS:
        dim = op.properties.get("dimension")
        text = str(dim) if dim is not None else ""
        for axis in ("x", "y", "z"):
            if text.endswith(f"{axis}>") or text.endswith(f" {axis}"):
                return f"{_DIMENSION_OPS[name]}_{axis}"
        return _DIMENSION_OPS[name]
    return FIXED_NAMES.get(name)
