"""``inline``: inline ``func.call``s to ``func.func``s with bodies, as
upstream's Inliner does with the func dialect's inliner interface.

A call is inlined when its callee (public or private) has a body, is not
recursive (cannot reach itself through calls) and holds only ops of dialects
upstream can inline (func, arith, math, cf, scf, memref, vector, affine,
tensor, linalg, index, llvm, bufferization, ub, builtin casts).  Single-block
bodies are spliced in place; multi-block bodies become a CFG whose returns
branch (``cf.br``) to the continuation.  Calls cloned in by inlining are
inlined in turn.  Afterwards, like upstream, the ``default-pipeline``
(``canonicalize``, or nothing when empty) runs on each function that changed,
and private functions left without uses are erased.  Not covered: upstream's
``op-pipelines`` and ``inlining-threshold`` options and call-site cost
models; ``max-iterations`` bounds the rounds of inlining.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import cf, func, scf
from xdsl.dialects.builtin import ModuleOp, SymbolRefAttr
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from mlkit.diagnostics.emit import emit_error
from mlkit.passes.transforms.canonicalize import canonicalize
from mlkit.passes.transforms.symbol_dce import resolve, symbol_uses, table_ops, visibility

INLINABLE_DIALECTS = frozenset(
    {
        "func", "arith", "math", "cf", "scf", "memref", "vector", "affine", "tensor",
        "linalg", "index", "llvm", "bufferization", "ub", "complex",
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


def _legal_to_inline(callee: func.FuncOp) -> bool:
    if not callee.body.blocks:
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


@dataclass(frozen=True)
class InlinerPass(ModulePass):
    """Inline function calls"""

    name = "inline"
    display_name: ClassVar[str] = "Inliner"

    default_pipeline: str = "canonicalize"
    max_iterations: int = 4

    def __post_init__(self) -> None:
        # upstream's option is `unsigned`: LLVM's parser refuses a negative value
        if self.max_iterations < 0:
            raise ValueError(
                f"for the --max-iterations option: '{self.max_iterations}' value invalid "
                "for uint argument!"
            )

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if self.default_pipeline not in ("canonicalize", ""):
            raise emit_error(ctx, op, f"inline: unsupported default-pipeline '{self.default_pipeline}'")
        # Callees before callers, as upstream walks the call graph's SCCs
        # bottom-up: a callee is simplified before it is cloned into callers.
        for caller in _post_order([f for f in op.walk() if isinstance(f, func.FuncOp)]):
            # Upstream runs the default pipeline on every callable it visits.
            self._inline_into(caller)
            if self.default_pipeline == "canonicalize":
                canonicalize(ctx, caller)
        for f in [f for f in table_ops(op) if isinstance(f, func.FuncOp)]:
            if f.body.blocks and visibility(f) == "private" and not _has_uses(f, op):
                f.detach()
                f.erase()

    def _inline_into(self, caller: func.FuncOp) -> bool:
        changed = False
        for _ in range(max(self.max_iterations, 1)):
            inlined = False
            for call in _calls_in(caller):
                callee = callee_of(call)
                if callee is None or callee is caller or not _legal_to_inline(callee) or _is_recursive(callee):
                    continue
                if len(callee.body.blocks) > 1 and not isinstance(call.parent_op(), MULTI_BLOCK_PARENTS):
                    continue  # a CFG cannot go into a single-block region (scf.if, scf.for, ...)
                inline_call(call, callee)
                inlined = changed = True
            if not inlined:
                break
        return changed
