"""StableHLO to linalg on tensors, with IREE's StableHLO input conversion.

JAX (and other StableHLO producers) hand over StableHLO; mlkit reads linalg
on tensors in upstream MLIR's dialects. The ``iree-base-compiler`` wheel
carries StableHLO's own legalize-to-linalg with IREE's preprocessing, and
MLIR Python bindings to run it in this process. Only those passes run, none
of IREE's own dialects or runtime: what comes out is checked to hold no op
of a dialect mlkit lacks. IREE is optional (mlkit's ``jax`` extra) and is
imported on first use.
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["PREPROCESS", "TO_LINALG", "ConversionError", "stablehlo_to_linalg"]

INSTALL_HINT = "pip install 'mlkit-compiler[jax]' (jax[cpu] and iree-base-compiler)"

# IREE's iree-stablehlo-input-transformation-pipeline (iree-opt
# --dump-pass-pipeline lists it) in two steps, with mlkit's fixes (gather
# bounds, dynamic shapes) before the first and between the two. Left out: the passes IREE's
# bindings do not register on their own (VHLO, quantization, bounded
# dynamism, shape-dialect lowering, canonicalize-dynamism, none of which a
# JAX export needs; composites are turned into calls here) and
# iree-stablehlo-to-linalg-ext, whose output (sort, scatter, fft, top-k as
# iree_linalg_ext ops) is IREE's own: those ops now fail to convert, with
# their location.
PREPROCESS = (
    "builtin.module("
    "func.func(chlo-legalize-to-stablehlo,canonicalize,iree-stablehlo-canonicalize,cse,"
    "iree-stablehlo-legalize-custom-calls,iree-stablehlo-legalize-control-flow),"
    "iree-stablehlo-preprocessing-flatten-scf-tuples,"
    "iree-stablehlo-to-stablehlo-preprocessing{order-conv-features=true},"
    "func.func(iree-stablehlo-canonicalize,shape-to-shape-lowering,canonicalize),"
    "inline,"
    "func.func(canonicalize,iree-stablehlo-canonicalize,cse,"
    "iree-stablehlo-legalize-shape-computations))"
)
TO_LINALG = (
    "builtin.module(func.func(chlo-legalize-to-stablehlo),iree-stablehlo-to-iree-input,"
    "reconcile-unrealized-casts,func.func(canonicalize,cse),symbol-dce)"
)

# IREE ops that mean nothing outside IREE: each result is its operand
_FORWARDING_OPS = frozenset({"util.optimization_barrier"})
_NAME = re.compile(r'"([^"]+)"')
_SOURCE = re.compile(r'"([^"]+)":(\d+):\d+')


class ConversionError(ValueError):
    """StableHLO that the conversion rejects, or turns into ops outside
    upstream MLIR (which mlkit does not read)."""


def _require_iree() -> tuple[Any, Any]:
    try:
        from iree.compiler import ir, passmanager
    except ImportError as exc:
        raise ImportError(
            f"converting StableHLO to linalg needs IREE's compiler wheel: {INSTALL_HINT}"
        ) from exc
    return ir, passmanager


def stablehlo_to_linalg(text: str) -> str:
    """StableHLO text (``jax.jit(f).lower(*args).as_text()`` or
    ``jax.export``'s ``mlir_module()``) as linalg on tensors in upstream
    MLIR's dialects: the input ``mlkit.compile`` and ``mlkit-opt`` read.

    ConversionError, naming each op and where JAX traced it, for an op the
    conversion cannot lower (sort, scatter, a reshape of several dynamic
    dimensions) or one of a dialect mlkit does not have."""
    ir, passmanager = _require_iree()
    with ir.Context() as ctx:
        ctx.enable_multithreading(False)  # small modules; mlkit's cores are its own
        try:
            module = ir.Module.parse(text)
            _composites_to_calls(ir, module)
            _dynamic_takes_to_index_select(ir, module)
            _clamp_gather_indices(ir, module)
            passmanager.PassManager.parse(PREPROCESS).run(module.operation)
            _mark_broadcast_dimensions(ir, module)
            _dynamic_reshapes_to_tensor_reshapes(ir, module)
            passmanager.PassManager.parse(TO_LINALG).run(module.operation)
        except ir.MLIRError as exc:
            raise ConversionError(_diagnostics(exc)) from None
        _forward_iree_ops(ir, module)
        foreign = _foreign_ops(ir, module)
        if foreign:
            raise ConversionError(
                "StableHLO to linalg left ops outside upstream MLIR's dialects:\n"
                + "\n".join(foreign[:8])
            )
        return str(module.operation.get_asm(assume_verified=True))


def _where(location: Any) -> str:
    """A traced op's location, short: its JAX name and its innermost source
    line (``jit(f)/dot_general (model.py:12)``), not the whole call chain."""
    text = str(location)
    name = _NAME.search(text)
    source = _SOURCE.search(text)
    where = name.group(1) if name else text
    if source:
        where += f" ({source.group(1).rsplit('/', 1)[-1]}:{source.group(2)})"
    return where


def _diagnostics(exc: Any) -> str:
    lines = ["StableHLO to linalg failed:"]
    for diag in getattr(exc, "error_diagnostics", ()) or ():
        message = diag.message.split(": %", 1)[0]  # the op's full text follows
        lines.append(f"{_where(diag.location)}: {message}")
    if len(lines) == 1:
        lines.append(str(exc))
    return "\n".join(dict.fromkeys(lines))  # the same error once


def _walk(ir: Any, module: Any, names: frozenset[str]) -> list[Any]:
    found: list[Any] = []

    def visit(op: Any) -> Any:
        if op.name in names:
            found.append(op)
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return found


def _composites_to_calls(ir: Any, module: Any) -> None:
    """Each ``stablehlo.composite`` as a call of its decomposition (upstream's
    stablehlo-legalize-composite-to-call, which IREE's bindings do not
    register on their own); ``inline`` inlines it."""
    for op in _walk(ir, module, frozenset({"stablehlo.composite"})):
        with ir.InsertionPoint(op), op.location:
            call = ir.Operation.create(
                "func.call",
                [r.type for r in op.results],
                list(op.operands),
                {"callee": op.attributes["decomposition"]},
            )
        for old, new in zip(op.results, call.results):
            old.replace_all_uses_with(new)
        op.erase()


def _mark_broadcast_dimensions(ir: Any, module: Any) -> None:
    """Tell each ``stablehlo.dynamic_broadcast_in_dim`` which of its operand's
    dimensions expand (those of size 1 whose result dimension is not 1) and
    that the others do not: its linalg lowering fails without knowing. In a
    JAX export a dynamic operand dimension never expands: JAX broadcasts a
    symbolic dimension only to itself, at trace time. Runs after the
    preprocessing, whose folds make new broadcasts without the marks."""
    for op in _walk(ir, module, frozenset({"stablehlo.dynamic_broadcast_in_dim"})):
        operand = ir.RankedTensorType(op.operands[0].type).shape
        result = ir.RankedTensorType(op.results[0].type).shape
        dims = list(ir.DenseI64ArrayAttr(op.attributes["broadcast_dimensions"]))
        expanding = [i for i, d in enumerate(dims) if operand[i] == 1 and result[d] != 1]
        fixed = [i for i in range(len(operand)) if i not in expanding]
        op.attributes["known_expanding_dimensions"] = ir.DenseI64ArrayAttr.get(expanding)
        op.attributes["known_nonexpanding_dimensions"] = ir.DenseI64ArrayAttr.get(fixed)


def _dynamic_takes_to_index_select(ir: Any, module: Any) -> None:
    """Rewrite each ``jnp.take(table, indices, axis=0)`` gather (embedding
    lookups) with dynamic dimensions as ``stablehlo.torch_index_select`` of
    the clamped indices. IREE's gather preprocessing collapses the batch
    dimensions with a ``stablehlo.reshape``, which cannot be dynamic, and
    fails on such a gather; its index-select lowering handles them. The clamp
    keeps gather's semantics for indices out of range."""
    for op in _walk(ir, module, frozenset({"stablehlo.gather"})):
        trailing = _dynamic_take(ir, op)
        if trailing is not None:
            _index_select(ir, op, trailing)


def _gather_dims(op: Any) -> tuple[dict[str, list[int]], int | None]:
    """The lists of a gather's dimension numbers, and its index vector dimension."""
    numbers = str(op.attributes["dimension_numbers"])
    lists = {
        key: [int(v) for v in values.split(",") if v.strip()]
        for key, values in re.findall(r"(\w+) = \[([^\]]*)\]", numbers)
    }
    vector_dim = re.search(r"index_vector_dim = (\d+)", numbers)
    return lists, int(vector_dim.group(1)) if vector_dim else None


def _clamp_gather_indices(ir: Any, module: Any) -> None:
    """Clamp each gather's start indices into the operand, as the gather
    itself does (StableHLO's semantics, on which ``jnp.take``'s ``clip`` and
    ``fill`` modes rely): the linalg lowering reads at the index as given, so
    an index out of range (a token id past the vocabulary) read outside the
    buffer. Gathers whose bounds are not static are left alone."""
    create = ir.Operation.create
    for op in _walk(ir, module, frozenset({"stablehlo.gather"})):
        lists, vector_dim = _gather_dims(op)
        table = ir.RankedTensorType(op.operands[0].type)
        indices = op.operands[1]
        index_type = ir.RankedTensorType(indices.type)
        sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
        starts = lists.get("start_index_map", [])
        if vector_dim is None or not starts or any(table.shape[d] < 0 for d in starts):
            continue
        bounds = [table.shape[d] - sizes[d] for d in starts]
        element = index_type.element_type
        with ir.InsertionPoint(op), op.location:
            limits: list[Any] = []
            if len(bounds) == 1:  # one index per start: scalar bounds
                for value in (0, bounds[0]):
                    attr = ir.Attribute.parse(f"dense<{value}> : tensor<{element}>")
                    constant = create("stablehlo.constant", [attr.type], [], {"value": attr})
                    limits.append(constant.result)
            elif vector_dim < index_type.rank and all(s >= 0 for s in index_type.shape):
                for values in ([0] * len(bounds), bounds):  # a bound per index, broadcast
                    text = ", ".join(map(str, values))
                    attr = ir.Attribute.parse(f"dense<[{text}]> : tensor<{len(values)}x{element}>")
                    vector = create("stablehlo.constant", [attr.type], [], {"value": attr}).result
                    dims = ir.DenseI64ArrayAttr.get([vector_dim])
                    broadcast = create(
                        "stablehlo.broadcast_in_dim",
                        [index_type],
                        [vector],
                        {"broadcast_dimensions": dims},
                    )
                    limits.append(broadcast.result)
            else:
                continue
            clamped = create("stablehlo.clamp", [index_type], [limits[0], indices, limits[1]])
        op.operands[1] = clamped.result


def _dynamic_take(ir: Any, op: Any) -> bool | None:
    """Whether the gather ``op`` is an axis-0 take with a dynamic dimension
    whose indices end in a dimension of size 1 (True) or not (False); None
    for any other gather."""
    lists, vector_dim = _gather_dims(op)
    table = ir.RankedTensorType(op.operands[0].type)
    indices = ir.RankedTensorType(op.operands[1].type)
    result = ir.RankedTensorType(op.results[0].type)
    dynamic = ir.ShapedType.get_dynamic_size()
    if vector_dim is None or dynamic in table.shape or dynamic not in result.shape:
        return None
    trailing = vector_dim == indices.rank - 1 and indices.shape[-1] == 1
    if not trailing and vector_dim != indices.rank:
        return None
    batch = indices.rank - 1 if trailing else indices.rank
    sizes = list(ir.DenseI64ArrayAttr(op.attributes["slice_sizes"]))
    if (
        lists.get("collapsed_slice_dims") != [0]
        or lists.get("start_index_map") != [0]
        or lists.get("operand_batching_dims")
        or lists.get("offset_dims") != list(range(batch, batch + table.rank - 1))
        or sizes != [1, *table.shape[1:]]
    ):
        return None
    return trailing


def _index_select(ir: Any, op: Any, trailing: bool) -> None:
    """Replace the take ``op`` by ``torch_index_select`` (see
    :func:`_dynamic_takes_to_index_select`)."""
    table, indices = op.operands[0], op.operands[1]
    index_type = ir.RankedTensorType(indices.type)
    element = index_type.element_type
    create = ir.Operation.create
    with ir.InsertionPoint(op), op.location:
        if trailing:  # drop the index vector dimension of size 1: a sum over it
            # (a dynamic_reshape of two dynamic dimensions has no linalg lowering)
            scalar = ir.RankedTensorType.get([], element)
            zero = ir.Attribute.parse(f"dense<0> : tensor<{element}>")
            init = create("stablehlo.constant", [scalar], [], {"value": zero}).result
            flat = ir.RankedTensorType.get(index_type.shape[:-1], element)
            dims = ir.DenseI64ArrayAttr.get([index_type.rank - 1])
            reduce = create(
                "stablehlo.reduce", [flat], [indices, init], {"dimensions": dims}, regions=1
            )
            block = reduce.regions[0].blocks.append(scalar, scalar)
            with ir.InsertionPoint(block):
                total = create("stablehlo.add", [scalar], list(block.arguments)).result
                create("stablehlo.return", [], [total])
            indices = reduce.result
        bounds = []
        for value in (0, ir.RankedTensorType(table.type).shape[0] - 1):
            attr = ir.Attribute.parse(f"dense<{value}> : tensor<{element}>")
            bounds.append(create("stablehlo.constant", [attr.type], [], {"value": attr}).result)
        clamped = create("stablehlo.clamp", [indices.type], [bounds[0], indices, bounds[1]])
        i64 = ir.IntegerType.get_signless(64)
        select = create(
            "stablehlo.torch_index_select",
            [op.results[0].type],
            [table, clamped.result],
            {"dim": ir.IntegerAttr.get(i64, 0), "batch_dims": ir.IntegerAttr.get(i64, 0)},
        )
    op.results[0].replace_all_uses_with(select.result)
    op.erase()


def _dynamic_reshapes_to_tensor_reshapes(ir: Any, module: Any) -> None:
    """Each ``stablehlo.dynamic_reshape`` that only collapses or only expands
    dimensions, with at most one dynamic dimension on its lower-rank side,
    as ``tensor.collapse_shape`` or ``tensor.expand_shape``. The linalg
    lowering has no rule for a dynamic reshape; these (a dynamic batch
    folded into the rows of a matmul and back) have only one grouping of
    dimensions that keeps the element count, so their meaning is fixed.
    Others (two dynamic dimensions on both sides) are left to fail."""
    for op in _walk(ir, module, frozenset({"stablehlo.dynamic_reshape"})):
        source, shape = op.operands[0], op.operands[1]
        before = list(ir.RankedTensorType(source.type).shape)
        after = list(ir.RankedTensorType(op.results[0].type).shape)
        collapse = len(after) <= len(before)
        groups = _reassociation(after, before) if collapse else _reassociation(before, after)
        if groups is None:
            continue
        i64 = ir.IntegerType.get_signless(64)
        reassociation = ir.ArrayAttr.get(
            [ir.ArrayAttr.get([ir.IntegerAttr.get(i64, d) for d in g]) for g in groups]
        )
        create = ir.Operation.create
        with ir.InsertionPoint(op), op.location:
            if collapse:
                new = create(
                    "tensor.collapse_shape",
                    [op.results[0].type],
                    [source],
                    {"reassociation": reassociation},
                )
            else:  # the dynamic sizes are the ones the reshape asks for
                index = ir.IndexType.get()
                sizes = []
                for d, size in enumerate(after):
                    if size == ir.ShapedType.get_dynamic_size():
                        position = {"value": ir.IntegerAttr.get(index, d)}
                        at = create("arith.constant", [index], [], position)
                        extent = create(
                            "tensor.extract",
                            [ir.RankedTensorType(shape.type).element_type],
                            [shape, at.result],
                        )
                        cast = create("arith.index_cast", [index], [extent.result])
                        sizes.append(cast.result)
                new = create(
                    "tensor.expand_shape",
                    [op.results[0].type],
                    [source, *sizes],
                    {
                        "reassociation": reassociation,
                        "static_output_shape": ir.DenseI64ArrayAttr.get(after),
                    },
                )
        op.results[0].replace_all_uses_with(new.results[0])
        op.erase()


def _reassociation(short: list[int], long: list[int]) -> list[list[int]] | None:
    """The groups of consecutive dimensions of ``long`` whose sizes multiply
    to each dimension of ``short``, where ``short`` has at most one dynamic
    dimension (which takes what the static ones leave); None where there is
    no such grouping."""
    dynamic = [i for i, s in enumerate(short) if s < 0]
    if len(dynamic) > 1 or (not dynamic and any(s < 0 for s in long)) or len(short) > len(long):
        return None
    split = dynamic[0] if dynamic else len(short)
    groups: list[list[int]] = []
    at = 0
    for size in short[:split]:  # static dimensions from the left
        group, at = _static_group(size, long, at, 1)
        if group is None:
            return None
        groups.append(group)
    tail: list[list[int]] = []
    end = len(long) - 1
    for size in reversed(short[split + 1:]):  # and from the right
        group, end = _static_group(size, long, end, -1)
        if group is None:
            return None
        tail.insert(0, sorted(group))
    if dynamic:
        if end < at:
            return None
        groups.append(list(range(at, end + 1)))
    elif at != end + 1:
        return None
    return groups + tail


def _static_group(size: int, long: list[int], at: int, step: int) -> tuple[Any, int]:
    """The dimensions of ``long`` from ``at`` on (in direction ``step``) whose
    static sizes multiply to ``size``, and where the next group starts."""
    group: list[int] = []
    product = 1
    while 0 <= at < len(long) and long[at] >= 0 and (not group or product < size):
        product *= long[at]
        group.append(at)
        at += step
        if product == size:
            return group, at
    return None, at


def _forward_iree_ops(ir: Any, module: Any) -> None:
    for op in _walk(ir, module, _FORWARDING_OPS):
        for result, operand in zip(op.results, op.operands):
            result.replace_all_uses_with(operand)
        op.erase()


def _foreign_ops(ir: Any, module: Any) -> list[str]:
    """The ops of dialects mlkit does not register, with where they are."""
    from mlkit.plugins import default_registry

    known = set(default_registry().dialect_names())
    foreign: list[str] = []

    def visit(op: Any) -> Any:
        if op.name.split(".", 1)[0] not in known:
            foreign.append(f"{_where(op.location)}: {op.name}")
        return ir.WalkResult.ADVANCE

    module.operation.walk(visit)
    return foreign
