"""``one-shot-bufferize``: tensors to buffers, as upstream's pass.

Covers the tensor dialect (except reshape and bitcast, and gather and scatter,
which upstream does not bufferize either), dense tensor constants
(``memref.global`` named ``__constant_<shape>x<type>``, alignment 64), linalg
ops on tensors, ``func.func``/``call``/``return``, ``scf.for``/``if``/``while``
and ``bufferization.to_tensor``/``to_buffer``/``alloc_tensor``/``dealloc_tensor``
(the last to ``memref.dealloc``). Writes go in place only where
``bufferize_analysis`` proves no read-after-write conflict (a simpler analysis
than upstream's, so some programs get copies upstream avoids; results are the
same). Functions are bufferized callees first; recursive calls are rejected.
Other ops with tensor operands are an error, as upstream's default
``allow-unknown-ops=false``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mlkit.diagnostics.emit import emit_error

from mlkit.passes.transforms.bufferization.analysis import InPlaceAnalysis, is_tensor
from mlkit.passes.transforms.bufferization.control import CONTROL_RULES
from mlkit.passes.transforms.bufferization.core import Bufferizer, BufferizeError, Options
from mlkit.passes.transforms.bufferization.tensor import TENSOR_RULES


def _callee_first(module: ModuleOp) -> list[func.FuncOp]:
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)}
    order: list[func.FuncOp] = []
    state: dict[str, int] = {}

    def visit(name: str) -> None:
        if state.get(name):
            return
        state[name] = 1
        for call in funcs[name].walk():
            if isinstance(call, func.CallOp) and call.callee.root_reference.data in funcs:
                visit(call.callee.root_reference.data)
        order.append(funcs[name])

    for name in funcs:
        visit(name)
    return order


@dataclass(frozen=True)
class OneShotBufferize(ModulePass):
    """One-Shot Bufferize"""

    name = "one-shot-bufferize"
    display_name: ClassVar[str] = "OneShotBufferizePass"

    bufferize_function_boundaries: bool = False
    function_boundary_type_conversion: Literal["infer-layout-map", "identity-layout-map"] = (
        "infer-layout-map"
    )
    allow_return_allocs_from_loops: bool = False
    copy_before_write: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = Options(
            function_boundaries=self.bufferize_function_boundaries,
            infer_layout=self.function_boundary_type_conversion == "infer-layout-map",
            allow_return_allocs_from_loops=self.allow_return_allocs_from_loops,
            copy_before_write=self.copy_before_write,
        )
        b = Bufferizer(op, options, {**TENSOR_RULES, **CONTROL_RULES})
        arg_writes: dict[str, list[bool]] = {}
        fresh: dict[str, list[bool]] = {}
        boundaries = self.bufferize_function_boundaries
        try:
            for function in _callee_first(op):
                analysis = InPlaceAnalysis(
                    (lambda n: arg_writes.get(n)) if boundaries else (lambda n: []),
                    (lambda n: fresh.get(n)) if boundaries else (lambda n: None),
                    boundaries,
                    self.copy_before_write,
                )
                analysis.run(function)
                if function.body.blocks:
                    arg_writes[function.sym_name.data], fresh[function.sym_name.data] = (
                        _summaries(analysis, function)
                    )
                b.analysis = analysis
                b.run_op(function)
                b.erase_dead()
        except BufferizeError as err:
            raise emit_error(ctx, err.op, str(err)) from None


def _summaries(analysis: InPlaceAnalysis, function: func.FuncOp) -> tuple[list[bool], list[bool]]:
    """Which arguments the function writes, and which results are fresh buffers
    (no argument in their alias class, writable, returned once)."""
    entry = function.body.blocks.first
    assert entry is not None
    writes = [is_tensor(a) and analysis.is_written(a) for a in entry.args]
    returned = [
        ret.operands for blk in function.body.blocks
        if isinstance(ret := blk.last_op, func.ReturnOp)
    ]
    arg_roots = {analysis.find(a) for a in entry.args if is_tensor(a)}
    results: list[bool] = []
    for k in range(len(function.function_type.outputs.data)):
        ok = True
        for operands in returned:
            value = operands[k]
            if not is_tensor(value):
                ok = False
                break
            root = analysis.find(value)
            others = [analysis.find(v) for i, v in enumerate(operands) if i != k and is_tensor(v)]
            if root in arg_roots or not analysis.writable[root] or root in others:
                ok = False
        results.append(ok and bool(returned))
    return writes, results
