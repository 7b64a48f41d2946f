"""One-Shot Analysis across function boundaries (upstream's
``OneShotModuleBufferize`` analysis): functions are analyzed callees first,
and each gets a summary that its calls use: which tensor arguments it reads
and writes, which results may alias which arguments, and which results are
equivalent to an argument. Functions that call each other in a cycle are
analyzed last, without summaries (their calls are treated conservatively).

With ``test-analysis-only`` the summaries are written on the IR as upstream
writes them: ``bufferization.access`` on each tensor argument and
``__equivalent_func_args__`` on each ``func.return``.
"""

from __future__ import annotations

from xdsl.dialects import func
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, ModuleOp, StringAttr
from xdsl.dialects.builtin import TensorType, i64
from xdsl.ir import Attribute

from mlkit.passes.transforms.bufferization.conflicts import analyze
from mlkit.passes.transforms.bufferization.oneshot import OneShotAnalysis
from mlkit.passes.transforms.bufferization.operands import is_tensor_type
from mlkit.passes.transforms.bufferization.semantics import FuncSummary

ACCESS_ATTR = "bufferization.access"
EQUIVALENT_ATTR = "__equivalent_func_args__"


def _has_tensor_signature(function: func.FuncOp) -> bool:
    t = function.function_type
    return any(is_tensor_type(x) for x in (*t.inputs.data, *t.outputs.data))


def ordered_functions(module: ModuleOp) -> tuple[list[func.FuncOp], list[func.FuncOp]]:
    """Functions callees first, and the functions left in call cycles."""
    funcs = {op.sym_name.data: op for op in module.walk() if isinstance(op, func.FuncOp)}
    callees: dict[str, set[str]] = {}
    for name, function in funcs.items():
        callees[name] = {
            c.callee.root_reference.data for c in function.walk()
            if isinstance(c, func.CallOp) and c.callee.root_reference.data in funcs
            and _has_tensor_signature(funcs[c.callee.root_reference.data])
        }
    done: list[str] = []
    remaining = dict(callees)
    while True:
        ready = [n for n, cs in remaining.items() if not (cs - set(done))]
        if not ready:
            break
        for n in ready:
            done.append(n)
            del remaining[n]
    return [funcs[n] for n in done], [funcs[n] for n in remaining]


def analyze_module(state: OneShotAnalysis, module: ModuleOp, annotate: bool) -> None:
    ordered, cyclic = ordered_functions(module)
    for function in ordered:
        analyze(state, function)
        if annotate:
            state.annotate(function)
        state.summaries[function.sym_name.data] = summarize(state, function, annotate)
    for function in cyclic:
        analyze(state, function)
        if annotate:
            state.annotate(function)


def _ranked(t: Attribute) -> bool:
    return isinstance(t, TensorType)


def summarize(state: OneShotAnalysis, function: func.FuncOp, annotate: bool) -> FuncSummary:
    summary = FuncSummary()
    inputs = list(function.function_type.inputs.data)
    outputs = list(function.function_type.outputs.data)
    if not function.body.blocks:
        for i, t in enumerate(inputs):
            if is_tensor_type(t):
                summary.aliasing[i] = [k for k, r in enumerate(outputs) if is_tensor_type(r)]
    else:
        _aliasing_and_equivalence(state, function, summary, annotate)
    for i, t in enumerate(inputs):
        if not is_tensor_type(t):
            continue
        access = _arg_attr(function, i, ACCESS_ATTR)
        if isinstance(access, StringAttr):
            read = access.data in ("read", "read-write")
            written = access.data in ("write", "read-write")
        elif not function.body.blocks:
            read = written = True
        else:
            arg = function.body.blocks.first.args[i]  # type: ignore[union-attr]
            read, written = state.is_value_read(arg), state.is_value_written(arg)
        if annotate:
            text = {(True, True): "read-write", (True, False): "read",
                    (False, True): "write", (False, False): "none"}[(read, written)]
            _set_arg_attr(function, i, ACCESS_ATTR, StringAttr(text))
        if read:
            summary.read.add(i)
        if written:
            summary.written.add(i)
    return summary


def _aliasing_and_equivalence(state: OneShotAnalysis, function: func.FuncOp,
                              summary: FuncSummary, annotate: bool) -> None:
    returns = [blk.last_op for blk in function.body.blocks if isinstance(blk.last_op, func.ReturnOp)]
    args = function.body.blocks.first.args  # type: ignore[union-attr]
    for arg in args:
        if not _ranked(arg.type):
            continue
        found: list[int] = []
        for ret in returns:
            for k, v in enumerate(ret.operands):
                if _ranked(v.type) and k not in found and state.are_aliasing(v, arg):
                    found.append(k)
        if found:
            summary.aliasing[arg.index] = found

    def equivalent_arg(ret: func.ReturnOp, k: int) -> int | None:
        value = ret.operands[k]
        if not is_tensor_type(value.type):
            return None
        for arg in args:
            if _ranked(arg.type) and state.are_equivalent(value, arg):
                if annotate:
                    _mark_equivalent(ret, k, arg.index)
                return arg.index
        return None

    if not returns:
        return
    for k in range(len(returns[0].operands)):
        index = equivalent_arg(returns[0], k)
        if index is not None and all(equivalent_arg(r, k) == index for r in returns[1:]):
            summary.equivalent[k] = index


def _mark_equivalent(ret: func.ReturnOp, k: int, index: int) -> None:
    old = ret.attributes.get(EQUIVALENT_ATTR)
    values = ([a.value.data for a in old.data] if isinstance(old, ArrayAttr)  # type: ignore[attr-defined]
              else [-1] * len(ret.operands))
    values[k] = index
    ret.attributes[EQUIVALENT_ATTR] = ArrayAttr([IntegerAttr(v, i64) for v in values])


def _arg_attr(function: func.FuncOp, i: int, name: str) -> Attribute | None:
    if function.arg_attrs is None:
        return None
    return function.arg_attrs.data[i].data.get(name)


def _set_arg_attr(function: func.FuncOp, i: int, name: str, value: Attribute) -> None:
    count = len(function.function_type.inputs.data)
    dicts = ([dict(d.data) for d in function.arg_attrs.data] if function.arg_attrs is not None
             else [{} for _ in range(count)])
    dicts[i][name] = value
    function.arg_attrs = ArrayAttr([DictionaryAttr(d) for d in dicts])
