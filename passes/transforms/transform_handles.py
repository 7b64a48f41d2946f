"""How ``transform-interpreter`` runs the handle and cleanup ops of the
transform dialect: ``cast``, ``merge_handles``, ``split_handle``,
``get_parent_op``, ``apply_cse``, ``apply_patterns`` (canonicalization),
``apply_registered_pass``, ``structured.generalize``,
``structured.decompose_interface`` and ``structured.interchange``, each with upstream's semantics and messages.

Each function takes the transform op, the handles so far (value -> payload
ops) and the context, and returns one payload list per result.
"""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects import transform as xtransform
from xdsl.dialects.builtin import AffineMapAttr, ArrayAttr, IntegerAttr
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineExpr
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import Rewriter
from xdsl.traits import IsolatedFromAbove

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity
from mlkit.diagnostics.locations import op_loc
from mlkit.dialects.linalg import GenericOp, IndexOp, SoftmaxOp
from mlkit.dialects.transform import (
    ApplyCanonicalizationPatternsOp,
    ApplyCseOp,
    ApplyPatternsOp,
    CastOp,
    DecomposeInterfaceOp,
    GeneralizeOp,
    GetParentOp,
    InterchangeOp,
    MergeHandlesOp,
    SplitHandleOp,
)
from mlkit.passes.transforms.canonicalize import Canonicalize
from mlkit.passes.transforms.cse import CSE
from mlkit.passes.transforms.linalg_decompose_aggregated_ops import decompose_softmax
from mlkit.passes.transforms.linalg_generalize import generalize_as_upstream, is_generalizable

Handles = dict[SSAValue, list[Operation]]

__all__ = ["HANDLE_INTERPRETERS", "Handles", "failure"]


def failure(op: Operation, message: str, target: Operation | None = None, note: str = "target op") -> DiagnosticError:
    """A transform op's failure at the op, with upstream's note at the payload op."""
    error = DiagnosticError(Diagnostic(Severity.ERROR, message, op_loc(op)))
    if target is not None:
        error.diagnostic.notes.append(Diagnostic(Severity.NOTE, note, op_loc(target)))
    return error


def _cast(op: CastOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    payload = handles[op.input]
    wanted = op.output.type
    if isinstance(wanted, xtransform.OperationType):
        name = wanted.operation.data
        for target in payload:
            if target.name != name:
                raise failure(op, f"incompatible payload operation name expected {name} vs {target.name}", target)
    return [list(payload)]


def _merge(op: MergeHandlesOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    merged = [target for handle in op.handles for target in handles[handle]]
    if op.deduplicate is not None:
        merged = list(dict.fromkeys(merged))
    return [merged]


def _split(op: SplitHandleOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    payload = handles[op.handle]
    count = len(op.results)
    pass_through = op.pass_through_empty_handle is None or bool(op.pass_through_empty_handle.value.data)
    if not payload and pass_through:
        return [[] for _ in range(count)]
    too_small = op.fail_on_payload_too_small is None or bool(op.fail_on_payload_too_small.value.data)
    overflow = op.overflow_result.value.data if op.overflow_result is not None else None
    if (len(payload) < count and too_small) or (len(payload) > count and overflow is None):
        raise failure(
            op, f"split handle expected to contain {count} payloads but it contains {len(payload)} payloads"
        )
    results: list[list[Operation]] = [[target] for target in payload[:count]]
    results += [[] for _ in range(count - len(results))]
    if overflow is not None:
        results[overflow] += payload[count:]
    return results


def _parent(op: GetParentOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    nth = op.nth_parent.value.data if op.nth_parent is not None else 1
    name = op.op_name.data if op.op_name is not None else None
    found: list[Operation] = []
    for target in handles[op.target]:
        parent: Operation | None = target
        for _ in range(nth):
            parent = parent.parent_op() if parent is not None else None
            while parent is not None and not (
                (name is None or parent.name == name)
                and (op.isolated_from_above is None or parent.has_trait(IsolatedFromAbove))
            ):
                parent = parent.parent_op()
        if parent is None:
            if op.allow_empty_results is not None:
                continue
            raise failure(op, "could not find a parent op that matches all requirements", target)
        found.append(parent)
    return [list(dict.fromkeys(found)) if op.deduplicate is not None else found]


def _cse(op: ApplyCseOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    for target in handles[op.target]:
        CSE().apply(ctx, target)
    return []


def _patterns(op: ApplyPatternsOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    for pattern in op.patterns.block.ops:
        if not isinstance(pattern, ApplyCanonicalizationPatternsOp):
            raise failure(op, f"'{pattern.name}' is not supported by mlkit's transform interpreter")
    for target in handles[op.target]:
        Canonicalize().apply(ctx, target)
        if op.apply_cse is not None:
            CSE().apply(ctx, target)
    return []


def _registered_pass(op: xtransform.ApplyRegisteredPassOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry

    options = " ".join(f"{key}={_option_text(value)}" for key, value in op.options.data.items())
    text = op.pass_name.data + (f"{{{options}}}" if options else "")
    targets = handles[op.target]
    for target in targets:
        try:
            pm = PipelineBuilder(default_registry()).parse(f"{target.name}({text})", top_anchor=target.name)
        except Exception as exc:  # an unknown pass or a bad option, in the pipeline's words
            raise failure(op, str(exc)) from None
        PassRunner(ctx).run(pm, target)
    return [list(targets)]


def _option_text(value: object) -> str:
    if isinstance(value, IntegerAttr):
        return str(value.value.data)
    data = getattr(value, "data", value)
    return str(data).lower() if isinstance(data, bool) else str(data)


def _generalize(op: GeneralizeOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    result: list[Operation] = []
    for target in handles[op.target]:
        if isinstance(target, GenericOp):
            result.append(target)
            continue
        if not is_generalizable(target):
            raise failure(op, "failed to generalize operation", target)
        generic = generalize_as_upstream(target)
        Rewriter.replace_op(target, generic)
        result.append(generic)
    return [result]


def _decompose(op: DecomposeInterfaceOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    """Each target's decomposition; the handle holds the op of its new result."""
    result: list[Operation] = []
    for target in handles[op.target]:
        value = (
            decompose_softmax(target, PatternRewriter(target))
            if isinstance(target, SoftmaxOp)
            else None
        )
        if value is None:
            raise failure(op, f"{op.name} failed to apply", target, "when applied to this op")
        result.append(value.owner)  # type: ignore[arg-type]
    return [result]


def _interchange(op: InterchangeOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    order = list(op.iterator_interchange.get_values())
    for target in handles[op.target]:
        if not isinstance(target, GenericOp):
            raise failure(op, "transform applied to the wrong op kind", target, "when applied to this op")
        if not order:
            continue
        if len(order) != target.get_num_loops():
            raise failure(op, "interchange vector must be a permutation of the loops", target)
        _interchange_generic(target, order)
    return [list(handles[op.target])]


def _interchange_generic(op: GenericOp, order: list[int]) -> None:
    """New loop ``i`` is old loop ``order[i]``: maps, iterators and
    ``linalg.index`` follow (upstream's ``interchangeGenericOp``)."""
    new_of_old = {old: new for new, old in enumerate(order)}
    dims = [AffineExpr.dimension(new_of_old[old]) for old in range(len(order))]
    op.indexing_maps = ArrayAttr(
        [AffineMapAttr(m.data.replace_dims_and_symbols(dims, [], len(order), 0)) for m in op.indexing_maps]
    )
    op.iterator_types = ArrayAttr([op.iterator_types.data[old] for old in order])
    for inner in op.body.walk():
        if isinstance(inner, IndexOp):
            inner.properties["dim"] = IntegerAttr(new_of_old[inner.dim.value.data], inner.dim.type)


HANDLE_INTERPRETERS = {
    CastOp: _cast,
    MergeHandlesOp: _merge,
    SplitHandleOp: _split,
    GetParentOp: _parent,
    ApplyCseOp: _cse,
    ApplyPatternsOp: _patterns,
    xtransform.ApplyRegisteredPassOp: _registered_pass,
    GeneralizeOp: _generalize,
    DecomposeInterfaceOp: _decompose,
    InterchangeOp: _interchange,
}
