"""``inline``: inline ``func.call``s to ``func.func``s with bodies, as
upstream's Inliner does with the func dialect's inliner interface.

A call is inlined when its callee (public or private) has a body, is not
recursive (cannot reach itself through calls), neither it nor the call is
marked ``no_inline``, and it holds only ops of dialects upstream can inline
(func, arith, math, cf, scf, memref, vector, affine, tensor, linalg, index,
llvm, bufferization, ub, complex, gpu, builtin casts).  Single-block
bodies are spliced in place; multi-block bodies become a CFG whose returns
branch (``cf.br``) to the continuation.  Calls cloned in by inlining are
inlined in turn.  As upstream does, callees are visited before their
callers, and on each function the optimizer pipeline runs before every round
of inlining into it (up to ``max-iterations`` rounds, stopping when a round
inlines nothing): the pipeline named for its op in ``op-pipelines`` (e.g.
``func.func(canonicalize,cse)``), else ``default-pipeline`` (any pipeline
text; empty for none).  ``inlining-threshold`` is upstream's callee/caller
op-count ratio.  Private functions left without uses are erased.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from xdsl.context import Context
from xdsl.dialects import cf, func, scf
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.passes.transforms.symbol_dce import resolve, symbol_uses, table_ops, visibility
from mlkit.pipeline.options import option

if TYPE_CHECKING:
    from mlkit.pipeline.manager import OpPassManager

UINT_MAX = 4294967295  # upstream's `-1U`: no threshold

INLINABLE_DIALECTS = frozenset(
    {
        "func", "arith", "math", "cf", "scf", "memref", "vector", "affine", "tensor",
        "linalg", "index", "llvm", "bufferization", "ub", "complex", "gpu",
    }
)  # fmt: skip
MULTI_BLOCK_PARENTS = (func.FuncOp, scf.ExecuteRegionOp)
INLINABLE_OPS = frozenset({"builtin.unrealized_conversion_cast"})


def _table_of(op: Operation) -> Operation | None:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, ModuleOp):
        parent = parent.parent_op()
    return parent


def callee_of(call: func.CallOp) -> func.FuncOp | None:
    table = _table_of(call)
    if table is None:
        return None
    found = resolve(table, call.callee)
    target = found[-1] if found else None
    return target if isinstance(target, func.FuncOp) else None


def _calls_in(op: Operation) -> list[func.CallOp]:
    return [o for o in op.walk() if isinstance(o, func.CallOp)]


def _is_recursive(callee: func.FuncOp) -> bool:
    """Whether ``callee`` can reach itself through calls."""
    seen: set[func.FuncOp] = set()
    stack = [c for c in (callee_of(call) for call in _calls_in(callee)) if c is not None]
    while stack:
        f = stack.pop()
        if f is callee:
            return True
        if f in seen:
            continue
        seen.add(f)
        stack.extend(c for c in (callee_of(call) for call in _calls_in(f)) if c is not None)
    return False


def _post_order(funcs: list[func.FuncOp]) -> list[func.FuncOp]:
    """Functions ordered so that callees come before their callers."""
    order: list[func.FuncOp] = []
    seen: set[func.FuncOp] = set()

    def visit(f: func.FuncOp) -> None:
        if f in seen:
            return
        seen.add(f)
        for call in _calls_in(f):
            if (callee := callee_of(call)) is not None:
                visit(callee)
        order.append(f)

    for f in funcs:
        visit(f)
    return order


def _no_inline(op: Operation) -> bool:
    return "no_inline" in op.properties or "no_inline" in op.attributes


def _legal_to_inline(call: func.CallOp, callee: func.FuncOp) -> bool:
    """Upstream's func inliner interface: neither call nor callee says
    ``no_inline``, and every op in the body comes from a dialect that inlines."""
    if not callee.body.blocks or _no_inline(call) or _no_inline(callee):
        return False
    for op in callee.body.walk():
        if op.name in INLINABLE_OPS:
            continue
        if op.name.split(".", 1)[0] not in INLINABLE_DIALECTS:
            return False
    return True


def inline_call(call: func.CallOp, callee: func.FuncOp) -> None:
    """Splice a clone of ``callee``'s body in place of ``call``."""
    body = callee.body.clone()
    entry = body.blocks.first
    assert entry is not None
    for arg, value in zip(entry.args, call.arguments):
        arg.replace_all_uses_with(value)
    blocks = list(body.blocks)
    if len(blocks) == 1:
        ret = entry.last_op
        assert isinstance(ret, func.ReturnOp)
        results = list(ret.arguments)
        ret.detach()
        ret.erase()
        Rewriter.inline_block(entry, InsertPoint.before(call))
        Rewriter.replace_op(call, [], results)
        return
    block = call.parent_block()
    assert block is not None and call.next_op is not None
    post = block.split_before(call.next_op)
    results: list[SSAValue] = [post.insert_arg(t, len(post.args)) for t in call.result_types]
    for b in blocks:
        if isinstance(ret := b.last_op, func.ReturnOp):
            Rewriter.replace_op(ret, cf.BranchOp(post, *ret.arguments))
    region = block.parent
    assert region is not None
    for b in blocks:
        b.parent.detach_block(b)  # pyright: ignore
        region.insert_block_before(b, post)
    Rewriter.inline_block(entry, InsertPoint.before(call))  # also drops the emptied block
    Rewriter.replace_op(call, [], results)


def _has_uses(symbol: func.FuncOp, module: ModuleOp) -> bool:
    name = symbol.sym_name.data
    for op in table_ops(module):
        for ref in symbol_uses(op):
            if isinstance(ref, SymbolRefAttr) and ref.root_reference.data == name:
                return True
    return False


def _count_ops(op: Operation) -> int:
    return sum(1 for region in op.regions for _ in region.walk())


def _profitable(caller: func.FuncOp, callee: func.FuncOp, threshold: int) -> bool:
    """Upstream's ``isProfitableToInline``: the callee's op count is at most
    ``threshold`` percent of the caller's."""
    if threshold == 0:
        return False
    if threshold == UINT_MAX:
        return True
    caller_ops = _count_ops(caller)
    return caller_ops == 0 or _count_ops(callee) * 100 // caller_ops <= threshold


def split_pipelines(pieces: tuple[str, ...]) -> tuple[str, ...]:
    """Regroup an ``op-pipelines`` value that the option parser split at every
    comma, including those inside ``func.func(canonicalize,cse)``."""
    groups: list[str] = []
    depth, cur = 0, ""
    for piece in ",".join(pieces):
        if piece == "," and depth == 0:
            groups.append(cur)
            cur = ""
            continue
        depth += {"(": 1, "{": 1, ")": -1, "}": -1}.get(piece, 0)
        cur += piece
    groups.append(cur)
    return tuple(g.strip() for g in groups if g.strip())


def _parse_pipeline(text: str, anchor: str | None = None) -> OpPassManager:
    """``text`` as a pass manager: ``anchor(text)`` when ``anchor`` is given,
    else ``text`` must be an op-anchored pipeline itself."""
    from mlkit.pipeline.manager import PipelineBuilder
    from mlkit.pipeline.syntax import OpPipeline, PipelineSyntaxError, parse_pipeline
    from mlkit.plugins import default_registry

    if anchor is None:
        try:
            elements = parse_pipeline(text)
        except PipelineSyntaxError as exc:
            raise ValueError(exc.message) from None
        if len(elements) != 1 or not isinstance(elements[0], OpPipeline):
            raise ValueError(
                "expected pass pipeline to be wrapped with the anchor operation type, "
                "e.g. 'builtin.module(...)'"
            )
    try:
        return PipelineBuilder(default_registry()).parse(text if anchor is None else f"{anchor}({text})")
    except Exception as exc:  # an unknown pass or a bad option, in the pipeline's words
        raise ValueError(str(exc).splitlines()[0]) from None


@dataclass(frozen=True)
class InlinerPass(ModulePass):
    """Inline function calls"""

    name = "inline"
    display_name: ClassVar[str] = "Inliner"

    default_pipeline: str = option(
        "canonicalize",
        "The optimizer pipeline used for callables that do not have a dedicated optimizer "
        "pipeline in opPipelineList",
    )
    op_pipelines: tuple[str, ...] = option(
        (), "Callable operation specific optimizer pipelines (in the form of `dialect.op(pipeline)`)"
    )
    max_iterations: int = option(4, "Maximum number of iterations when inlining within an SCC")
    inlining_threshold: int = option(
        UINT_MAX,
        "If the ratio between the number of the operations in the callee and the number of "
        "the operations in the caller exceeds this value (in percentage), then the callee is "
        "not inlined even if it is legal to inline it",
    )

    def __post_init__(self) -> None:
        # upstream's options are `unsigned`: LLVM's parser refuses a negative value
        for flag, value in (("max-iterations", self.max_iterations), ("inlining-threshold", self.inlining_threshold)):
            if not 0 <= value <= UINT_MAX:
                raise ValueError(f"for the --{flag} option: '{value}' value invalid for uint argument!")
        object.__setattr__(self, "op_pipelines", split_pipelines(self.op_pipelines))
        for text in self.op_pipelines:
            _parse_pipeline(text)
        if self.default_pipeline:
            _parse_pipeline(self.default_pipeline, "func.func")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pipelines: dict[str, OpPassManager | None] = {}
        for text in self.op_pipelines:
            pm = _parse_pipeline(text)
            if pm.children:  # as upstream, an empty one leaves the default in place
                pipelines.setdefault(pm.anchor, pm)
        # Callees before callers, as upstream walks the call graph's SCCs
        # bottom-up: a callee is simplified before it is cloned into callers.
        for caller in _post_order([f for f in op.walk() if isinstance(f, func.FuncOp)]):
            for _ in range(max(self.max_iterations, 1)):
                self._optimize(ctx, caller, pipelines)
                if not self._inline_into(caller):
                    break
        for f in [f for f in table_ops(op) if isinstance(f, func.FuncOp)]:
            if f.body.blocks and visibility(f) == "private" and not _has_uses(f, op):
                f.detach()
                f.erase()

    def _optimize(self, ctx: Context, callable_op: Operation, pipelines: dict[str, OpPassManager | None]) -> None:
        """Run the callable's optimizer pipeline on it (upstream's ``optimizeCallable``)."""
        from mlkit.pipeline.manager import PassRunner

        if callable_op.name not in pipelines:
            pipelines[callable_op.name] = (
                _parse_pipeline(self.default_pipeline, callable_op.name) if self.default_pipeline else None
            )
        pm = pipelines[callable_op.name]
        if pm is not None:
            PassRunner(ctx, verify_each=False).run(pm, callable_op)

    def _inline_into(self, caller: func.FuncOp) -> bool:
        """Inline every call in ``caller`` that can be, and the calls that come
        in with them; whether any was."""
        changed, inlined = False, True
        while inlined:
            inlined = False
            for call in _calls_in(caller):
                callee = callee_of(call)
                if callee is None or callee is caller or not _legal_to_inline(call, callee) or _is_recursive(callee):
                    continue
                if len(callee.body.blocks) > 1 and not isinstance(call.parent_op(), MULTI_BLOCK_PARENTS):
                    continue  # a CFG cannot go into a single-block region (scf.if, scf.for, ...)
                if not _profitable(caller, callee, self.inlining_threshold):
                    continue
                inline_call(call, callee)
                inlined = changed = True
        return changed
