"""``one-shot-bufferize``: tensors to buffers, as upstream's pass.

Covers the tensor dialect (except reshape and bitcast, which upstream
bufferizes, and gather and scatter, which it does not either), dense tensor constants
(``memref.global`` named ``__constant_<shape>x<type>``, alignment 64), linalg
ops on tensors, ``vector.transfer_read``/``transfer_write`` and ``arith.select``
on tensors, ``func.func``/``call``/``return``, ``scf.for``/``if``/``while`` and
``bufferization.to_tensor``/``to_buffer``/``alloc_tensor``/``dealloc_tensor``
(the last to ``memref.dealloc``)/``materialize_in_destination``. In-place
decisions come from One-Shot Analysis (:mod:`.oneshot`, upstream's algorithm),
which also rejects loops that yield values not equivalent to their region
arguments unless ``allow-return-allocs-from-loops``. Functions are bufferized
callees first; recursive calls are rejected.

Options as upstream's: ``allow-unknown-ops`` keeps ops that are not
bufferizable (their tensors meet buffers through ``to_tensor``/``to_buffer``),
else such an op with tensors is an error; ``test-analysis-only`` only marks
each op with ``__inplace_operands_attr__`` (and, across function boundaries,
arguments with ``bufferization.access`` and returns with
``__equivalent_func_args__``); ``print-conflicts`` adds the conflicts and
read-only buffers that forced copies (``C_n[...]``/``W_n[...]``; numbered per
run, where upstream numbers per process).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass

from mlkit.diagnostics.emit import emit_error

from mlkit.passes.transforms.bufferization.conflicts import analyze
from mlkit.passes.transforms.bufferization.control import CONTROL_RULES
from mlkit.passes.transforms.bufferization.core import Bufferizer, Options
from mlkit.passes.transforms.bufferization.errors import BufferizeError
from mlkit.passes.transforms.bufferization.functions import analyze_module, ordered_functions
from mlkit.passes.transforms.bufferization.oneshot import OneShotAnalysis
from mlkit.passes.transforms.bufferization.tensor import TENSOR_RULES
from mlkit.passes.transforms.bufferization.vector import VECTOR_RULES


@dataclass(frozen=True)
class OneShotBufferize(ModulePass):
    """One-Shot Bufferize"""

    name = "one-shot-bufferize"
    display_name: ClassVar[str] = "OneShotBufferizePass"

    allow_unknown_ops: bool = False
    bufferize_function_boundaries: bool = False
    function_boundary_type_conversion: Literal["infer-layout-map", "identity-layout-map"] = (
        "infer-layout-map"
    )
    allow_return_allocs_from_loops: bool = False
    copy_before_write: bool = False
    test_analysis_only: bool = False
    print_conflicts: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        options = Options(
            function_boundaries=self.bufferize_function_boundaries,
            infer_layout=self.function_boundary_type_conversion == "infer-layout-map",
            allow_return_allocs_from_loops=self.allow_return_allocs_from_loops,
            copy_before_write=self.copy_before_write,
            allow_unknown_ops=self.allow_unknown_ops,
        )
        analysis = OneShotAnalysis(
            self.bufferize_function_boundaries,
            copy_before_write=self.copy_before_write,
            allow_return_allocs_from_loops=self.allow_return_allocs_from_loops,
            print_conflicts=self.print_conflicts,
        )
        try:
            if self.copy_before_write and self.test_analysis_only:
                raise BufferizeError(op, "Invalid option: 'copy-before-write' cannot be used "
                                     "with 'test-analysis-only'")
            analysis.prepare(op)
            if self.bufferize_function_boundaries:
                analyze_module(analysis, op, self.test_analysis_only)
            else:
                analyze(analysis, op)
                if self.test_analysis_only:
                    analysis.annotate(op)
            if self.test_analysis_only:
                return
            b = Bufferizer(op, options, {**TENSOR_RULES, **VECTOR_RULES, **CONTROL_RULES},
                           analysis)
            if self.bufferize_function_boundaries:
                ordered, cyclic = ordered_functions(op)
                for function in [*ordered, *cyclic]:
                    b.run_op(function)
                    b.erase_dead()
            else:
                b.run_op(op)
                b.erase_dead()
        except BufferizeError as err:
            raise emit_error(ctx, err.op, str(err)) from None


__all__ = ["OneShotBufferize"]
