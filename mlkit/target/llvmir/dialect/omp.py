"""Translation of OpenMP teams to LLVM IR: each ``omp.parallel`` around one
``omp.wsloop`` becomes an outlined function and a call of mlkit's thread
pool (:mod:`mlkit.runtime.threads`).

Upstream's ``OpenMPIRBuilder`` outlines the team's region and calls
``__kmpc_fork_call`` of LLVM's OpenMP runtime; mlkit calls its own fork-join
pool instead, which installs with mlkit and needs no OpenMP library:

* the values the team uses from outside go into a context struct on the
  caller's stack (one ``alloca`` in the function's entry block);
* ``@<fn>..omp_par.<k>(ptr %ctx, i64 %begin, i64 %end)`` unpacks it and runs
  iterations ``[begin, end)`` of the nest's first loop, and every iteration
  of the others (a ``collapse``\\ d nest is shared out along its first loop);
* the team becomes ``_mlkit_parallel_for(@outlined, %ctx, %trip_count,
  %num_threads)``, ``num_threads`` 0 meaning the pool's default.

The rewriting is done on a copy of the module in the llvm dialect, before
the translator writes any text, so the outlined functions are translated
like any other. Loops must step upwards (positive steps), as the loops mlkit
generates do. A team whose region holds more than pure ops and one
``omp.wsloop`` is refused with a located error.
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, ModuleOp, i64
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import is_side_effect_free

from mlkit.dialects import llvm, omp
from mlkit.passes.transforms.region_utils import used_values_defined_above
from mlkit.target.llvmir.interface import LLVMTranslationDialectInterface

PARALLEL_FOR = "_mlkit_parallel_for"
_PTR = llvm.LLVMPointerType()
_BODY_TYPE = llvm.LLVMFunctionType([_PTR, i64, i64])
_P = llvm.ICMP_PREDICATES


class OpenMPTranslation(LLVMTranslationDialectInterface):
    """Outlines the teams before translation; no omp op is left to translate."""

    rewrites_module = True

    def prepare_module(self, module: ModuleOp) -> None:
        try:
            outline_teams(module)
        except Refused as exc:
            raise self.module.error(exc.op, exc.reason) from None


class Refused(Exception):
    """A team the translation cannot outline: the op and why."""

    def __init__(self, op: Operation, reason: str) -> None:
        super().__init__(reason)
        self.op, self.reason = op, reason


def outline_teams(module: ModuleOp) -> None:
    """Replace every ``omp.parallel`` in ``module`` by a call of the pool."""
    teams = [op for op in module.walk() if isinstance(op, omp.ParallelOp)]
    names = {op.properties["sym_name"].data for op in module.ops if "sym_name" in op.properties}
    for team in reversed(teams):  # inner teams first: they become calls in the outer bodies
        _outline(module, team, names)
    if teams and PARALLEL_FOR not in names:
        declaration = llvm.FuncOp(PARALLEL_FOR, llvm.LLVMFunctionType([_PTR, _PTR, i64, i64]))
        module.body.block.add_op(declaration)


def _enclosing_function(op: Operation) -> llvm.FuncOp:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, llvm.FuncOp):
        parent = parent.parent_op()
    if parent is None:
        raise Refused(op, "expected the team inside an 'llvm.func'")
    return parent


def _team_loop(team: omp.ParallelOp) -> omp.LoopNestOp:
    """The team's one loop nest, after moving its pure prologue out before it."""
    ops = list(team.region.block.ops) if len(team.region.blocks) == 1 else []
    if len(ops) < 2 or not isinstance(ops[-2], omp.WsLoopOp):
        raise Refused(team, "only a team around one 'omp.wsloop' can be translated")
    for op in ops[:-2]:
        if op.regions or not is_side_effect_free(op):
            raise Refused(op, "only pure ops may come before the 'omp.wsloop' of a team")
        op.detach()
        Rewriter.insert_op(op, InsertPoint.before(team))
    nest = ops[-2].loop_nest
    for value in (*nest.loop_steps, *nest.operands, *nest.ivs):
        if value.type != i64:
            raise Refused(nest, "expected the loop bounds in i64 (run convert-openmp-to-llvm)")
    return nest


def _outlined_name(function: llvm.FuncOp, names: set[str]) -> str:
    base = f"{function.sym_name.data}..omp_par"
    k = 0
    while f"{base}.{k}" in names:
        k += 1
    names.add(f"{base}.{k}")
    return f"{base}.{k}"


def _trip_count(lb: SSAValue, ub: SSAValue, step: SSAValue, inclusive: bool) -> list[Operation]:
    """Ops whose last result is the number of iterations of one loop (>= 0)."""
    one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
    zero = llvm.ConstantOp(IntegerAttr(0, i64), i64)
    span = llvm.SubOp(ub, lb)
    if inclusive:
        quotient = llvm.SDivOp(span.results[0], step)
        count = llvm.AddOp(quotient.results[0], one.results[0])
        ops: list[Operation] = [one, zero, span, quotient, count]
        empty = llvm.ICmpOp(_P["slt"], ub, lb)
    else:
        rounded = llvm.AddOp(span.results[0], step)
        less = llvm.SubOp(rounded.results[0], one.results[0])
        count = llvm.SDivOp(less.results[0], step)
        ops = [one, zero, span, rounded, less, count]
        empty = llvm.ICmpOp(_P["sle"], ub, lb)
    chosen = llvm.SelectOp(empty.results[0], zero.results[0], count.results[0])
    return [*ops, empty, chosen]


def _outline(module: ModuleOp, team: omp.ParallelOp, names: set[str]) -> None:
    function = _enclosing_function(team)
    nest = _team_loop(team)
    captured = used_values_defined_above(team)
    context_type = llvm.LLVMStructType(list(v.type for v in captured))
    name = _outlined_name(function, names)

    # the caller: pack the context, count the first loop's iterations, call the pool
    entry = function.body.blocks[0]
    one = llvm.ConstantOp(IntegerAttr(1, i64), i64)
    slot = llvm.AllocaOp(one.results[0], context_type)
    Rewriter.insert_op([one, slot], InsertPoint.at_start(entry))
    call_site: list[Operation] = [packed := llvm.UndefOp(context_type)]
    value = packed.results[0]
    for index, item in enumerate(captured):
        insert = llvm.InsertValueOp(value, item, [index])
        call_site.append(insert)
        value = insert.results[0]
    call_site.append(llvm.StoreOp(value, slot.results[0]))
    lb, ub, step = nest.loop_lower_bounds[0], nest.loop_upper_bounds[0], nest.loop_steps[0]
    call_site += _trip_count(lb, ub, step, nest.loop_inclusive is not None)
    trips = call_site[-1].results[0]
    threads = team.num_threads
    if threads is None:
        call_site.append(default := llvm.ConstantOp(IntegerAttr(0, i64), i64))
        threads = default.results[0]
    elif threads.type != i64:
        call_site.append(widened := llvm.SExtOp(threads, i64))
        threads = widened.results[0]
    address = llvm.AddressOfOp(name, _PTR)
    call = llvm.CallOp(PARALLEL_FOR, [address.results[0], slot.results[0], trips, threads])
    call_site += [address, call]
    Rewriter.insert_op(call_site, InsertPoint.before(team))

    # the outlined function: unpack, then the loops around the nest's body
    body = Region(Block(arg_types=[_PTR, i64, i64]))
    outlined = llvm.FuncOp(name, _BODY_TYPE, linkage="internal", body=body)
    Rewriter.insert_op(outlined, InsertPoint.after(function))
    start = body.blocks[0]
    ctx, begin, end = start.args
    load = llvm.LoadOp(ctx, context_type)
    start.add_op(load)
    unpacked = {}
    for index, item in enumerate(captured):
        extract = llvm.ExtractValueOp(load.results[0], [index])
        start.add_op(extract)
        unpacked[item] = extract.results[0]
    _build_loops(body, nest, begin, end)
    Rewriter.erase_op(team)
    for item, replacement in unpacked.items():
        item.replace_uses_with_if(replacement, lambda use: outlined.is_ancestor(use.operation))


def _build_loops(body: Region, nest: omp.LoopNestOp, begin: SSAValue, end: SSAValue) -> None:
    """Loops ``begin..end`` over the first dimension (scaled by its step),
    each inner dimension over its full range, around the nest's blocks."""
    start = body.blocks[0]
    exit_block = Block()
    exit_block.add_op(llvm.ReturnOp())
    compare = "sle" if nest.loop_inclusive is not None else "slt"
    dims = len(nest.ivs)
    latches: list[Block] = []
    ivs: list[SSAValue] = []
    previous, previous_exit = start, exit_block
    for d in range(dims):
        header = Block(arg_types=[i64])
        inside = Block()
        latch = Block()
        counter = header.args[0]
        limit = end if d == 0 else nest.loop_upper_bounds[d]
        test = llvm.ICmpOp(_P["slt" if d == 0 else compare], counter, limit)
        header.add_ops([test, llvm.CondBrOp(test.results[0], inside, [], previous_exit, [])])
        if d == 0:
            scaled = llvm.MulOp(counter, nest.loop_steps[0])
            iv = llvm.AddOp(nest.loop_lower_bounds[0], scaled.results[0])
            inside.add_ops([scaled, iv])
            ivs.append(iv.results[0])
            initial = begin
            step = llvm.ConstantOp(IntegerAttr(1, i64), i64)
            latch.add_op(step)
            step_value = step.results[0]
        else:
            ivs.append(counter)
            initial = nest.loop_lower_bounds[d]
            step_value = nest.loop_steps[d]
        following = llvm.AddOp(counter, step_value)
        latch.add_ops([following, llvm.BrOp(header, following.results[0])])
        previous.add_op(llvm.BrOp(header, initial))
        latches.append(latch)
        body.add_block(header)
        body.add_block(inside)
        previous, previous_exit = inside, latch
    nest_blocks = list(nest.region.blocks)
    first = nest_blocks[0]
    for arg, iv in zip(list(first.args), ivs):
        arg.replace_all_uses_with(iv)
        first.erase_arg(arg)
    previous.add_op(llvm.BrOp(first))
    for block in nest_blocks:
        nest.region.detach_block(block)
        body.add_block(block)
        terminator = block.last_op
        if isinstance(terminator, omp.YieldOp):
            if terminator.operands:
                raise Refused(terminator, "a loop nest that yields values cannot be translated")
            Rewriter.replace_op(terminator, llvm.BrOp(latches[-1]))
    for latch in reversed(latches):
        body.add_block(latch)
    body.add_block(exit_block)

