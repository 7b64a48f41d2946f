"""The part of upstream's ``omp`` (OpenMP) dialect that parallel loops need:
``omp.parallel`` (with ``num_threads``), ``omp.wsloop`` (with ``nowait``),
``omp.loop_nest`` (with ``inclusive`` and ``collapse``), ``omp.yield`` and
``omp.terminator``, in upstream's syntax; and the synchronization ops
``omp.barrier``, ``omp.master``, ``omp.taskwait`` (without clauses),
``omp.taskyield`` and ``omp.flush``, which mlkit reads, verifies and prints
but does not translate to LLVM IR (its thread pool has no OpenMP runtime).

xDSL has these ops but no custom syntax for them, and its ``omp.wsloop`` is
the older form that carried the bounds itself; upstream's current form wraps
one ``omp.loop_nest``. Other clauses (``private``, ``reduction``, ``if``,
``proc_bind``, ``schedule``...) are refused where they are parsed, so nothing
is silently dropped.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, UnitAttr, i32, i64
from xdsl.ir import Attribute, Block, Dialect, Operation, Region, SSAValue
from xdsl.irdl import AttrSizedOperandSegments, IRDLOperation, irdl_op_definition
from xdsl.irdl import lazy_traits_def, opt_operand_def, opt_prop_def, region_def, traits_def
from xdsl.irdl import var_operand_def
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, NoTerminator, RecursiveMemoryEffect
from xdsl.utils.exceptions import VerifyException
from mlkit.dialects.utils.dialects import op_lookup

_UNSUPPORTED = (
    "allocate", "if", "num_teams", "private", "proc_bind", "reduction", "schedule", "order",
    "linear", "ordered", "simd", "firstprivate",
)  # fmt: skip


def _refuse_clause(parser: Parser, op: str, known: Sequence[str]) -> None:
    """A located error for a clause this op does not take here."""
    pos = parser.pos
    word = parser.parse_optional_identifier()
    if word is None:
        return
    if word in _UNSUPPORTED:
        parser.raise_error(f"'{op}' clause '{word}' is not supported by mlkit", pos, parser.pos)
    parser.raise_error(f"expected one of {', '.join(repr(k) for k in known)} or a region, "
                       f"got '{word}'", pos, parser.pos)  # fmt: skip


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """``omp.terminator``: ends the region of ``omp.parallel``."""

    name = "omp.terminator"

    traits = traits_def(IsTerminator())
    assembly_format = "attr-dict"

    def __init__(self) -> None:
        super().__init__()


@irdl_op_definition
class YieldOp(IRDLOperation):
    """``omp.yield``: ends an iteration of ``omp.loop_nest``."""

    name = "omp.yield"

    results_ = var_operand_def()
    traits = traits_def(IsTerminator())
    assembly_format = "( `(` $results_^ `:` type($results_) `)` )? attr-dict"

    def __init__(self, values: Sequence[SSAValue] = ()) -> None:
        super().__init__(operands=[list(values)])


@irdl_op_definition
class ParallelOp(IRDLOperation):
    """``omp.parallel num_threads(%n : i32) { ... omp.terminator }``: each
    thread of a team runs the region once."""

    name = "omp.parallel"

    num_threads = opt_operand_def(IntegerType)
    region = region_def()
    traits = traits_def(RecursiveMemoryEffect())

    def __init__(self, body: Region, num_threads: SSAValue | None = None) -> None:
        super().__init__(operands=[[num_threads] if num_threads else []], regions=[body])

    @classmethod
    def parse(cls, parser: Parser) -> ParallelOp:
        num_threads: SSAValue | None = None
        if parser.parse_optional_keyword("num_threads") is not None:
            parser.parse_punctuation("(")
            unresolved = parser.parse_unresolved_operand()
            parser.parse_punctuation(":")
            num_threads = parser.resolve_operand(unresolved, parser.parse_type())
            parser.parse_punctuation(")")
        else:
            _refuse_clause(parser, cls.name, ("num_threads",))
        region = parser.parse_region()
        op = cls(region, num_threads)
        extra = parser.parse_optional_attr_dict_with_keyword()
        if extra is not None:
            op.attributes |= extra.data
        return op

    def print(self, printer: Printer) -> None:
        if self.num_threads is not None:
            printer.print_string(" num_threads(")
            printer.print_operand(self.num_threads)
            printer.print_string(" : ")
            printer.print_attribute(self.num_threads.type)
            printer.print_string(")")
        printer.print_string(" ")
        printer.print_region(self.region)
        printer.print_op_attributes(self.attributes, print_keyword=True)

    def verify_(self) -> None:
        if not self.region.blocks or self.region.blocks[-1].last_op is None:
            raise VerifyException("expects a non-empty region ending in 'omp.terminator'")


@irdl_op_definition
class WsLoopOp(IRDLOperation):
    """``omp.wsloop { omp.loop_nest ... }``: the iterations of the wrapped
    loop nest are shared among the threads of the enclosing team."""

    name = "omp.wsloop"

    nowait = opt_prop_def(UnitAttr)
    region = region_def("single_block")
    traits = traits_def(NoTerminator(), RecursiveMemoryEffect())

    def __init__(self, body: Region, nowait: bool = False) -> None:
        super().__init__(regions=[body], properties={"nowait": UnitAttr()} if nowait else {})

    @property
    def loop_nest(self) -> LoopNestOp:
        op = self.region.block.first_op
        assert isinstance(op, LoopNestOp)
        return op

    @classmethod
    def parse(cls, parser: Parser) -> WsLoopOp:
        nowait = parser.parse_optional_keyword("nowait") is not None
        if not nowait:
            _refuse_clause(parser, cls.name, ("nowait",))
        op = cls(parser.parse_region(), nowait)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        printer.print_string(" nowait" if self.nowait is not None else "")
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        ops = list(self.region.block.ops)
        if len(ops) != 1 or not isinstance(ops[0], LoopNestOp):
            raise VerifyException("loop wrapper does not contain exactly one nested op")


@irdl_op_definition
class LoopNestOp(IRDLOperation):
    """``omp.loop_nest (%i, %j) : index = (%lb0, %lb1) to (%ub0, %ub1)
    [inclusive] step (%s0, %s1) [collapse(2)] { ... omp.yield }``."""

    name = "omp.loop_nest"

    loop_lower_bounds = var_operand_def()
    loop_upper_bounds = var_operand_def()
    loop_steps = var_operand_def()
    loop_inclusive = opt_prop_def(UnitAttr)
    collapse_num_loops = opt_prop_def(IntegerAttr)
    region = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    traits = lazy_traits_def(lambda: (HasParent(WsLoopOp), RecursiveMemoryEffect()))

    def __init__(
        self,
        lower: Sequence[SSAValue],
        upper: Sequence[SSAValue],
        steps: Sequence[SSAValue],
        body: Region,
        inclusive: bool = False,
    ) -> None:
        props: dict[str, Attribute] = {}
        if inclusive:
            props["loop_inclusive"] = UnitAttr()
        if len(lower) > 1:
            props["collapse_num_loops"] = IntegerAttr(len(lower), i64)
        super().__init__(
            operands=[list(lower), list(upper), list(steps)], regions=[body], properties=props
        )

    @classmethod
    def parse(cls, parser: Parser) -> LoopNestOp:
        args = parser.parse_comma_separated_list(
            parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
        )
        parser.parse_punctuation(":")
        type_ = parser.parse_type()

        def operands() -> list[SSAValue]:
            found: list[UnresolvedOperand] = parser.parse_comma_separated_list(
                parser.Delimiter.PAREN, parser.parse_unresolved_operand
            )
            return [parser.resolve_operand(o, type_) for o in found]

        parser.parse_punctuation("=")
        lower = operands()
        parser.parse_keyword("to")
        upper = operands()
        inclusive = parser.parse_optional_keyword("inclusive") is not None
        parser.parse_keyword("step")
        steps = operands()
        collapse: int | None = None
        if parser.parse_optional_keyword("collapse") is not None:
            parser.parse_punctuation("(")
            collapse = parser.parse_integer()
            parser.parse_punctuation(")")
        typed = [arg.resolve(type_) for arg in args]
        region = parser.parse_region(typed)
        op = cls(lower, upper, steps, region, inclusive)
        if collapse is not None:
            op.collapse_num_loops = IntegerAttr(collapse, i64)
        op.attributes |= parser.parse_optional_attr_dict()
        return op

    def print(self, printer: Printer) -> None:
        args = self.region.blocks[0].args if self.region.blocks else ()
        printer.print_string(" (")
        printer.print_list(args, printer.print_operand)
        printer.print_string(") : ")
        printer.print_attribute(args[0].type if args else self.loop_lower_bounds[0].type)
        for word, values in (("=", self.loop_lower_bounds), ("to", self.loop_upper_bounds)):
            printer.print_string(f" {word} (")
            printer.print_list(values, printer.print_operand)
            printer.print_string(")")
        printer.print_string(" inclusive" if self.loop_inclusive is not None else "")
        printer.print_string(" step (")
        printer.print_list(self.loop_steps, printer.print_operand)
        printer.print_string(")")
        collapse = self.collapse_num_loops
        if collapse is not None and collapse.value.data > 1:
            printer.print_string(f" collapse({collapse.value.data})")
        printer.print_string(" ")
        printer.print_region(self.region, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        lower, upper, steps = self.loop_lower_bounds, self.loop_upper_bounds, self.loop_steps
        if not lower:
            raise VerifyException("must represent at least one loop")
        if not len(lower) == len(upper) == len(steps):
            raise VerifyException("number of range arguments and IVs do not match")
        args = self.region.blocks[0].args if self.region.blocks else ()
        if len(args) != len(lower):
            raise VerifyException("number of range arguments and IVs do not match")
        first = lower[0].type
        for value in (*lower, *upper, *steps, *args):
            if value.type != first:
                raise VerifyException("range argument type does not match corresponding IV type")
        collapse = self.collapse_num_loops
        if collapse is not None and not 1 <= collapse.value.data <= len(lower):
            raise VerifyException(
                "collapse value must be between 1 and the number of loops in the nest"
            )

    @property
    def ivs(self) -> tuple[SSAValue, ...]:
        return tuple(self.region.blocks[0].args)


def single_block(ops: Sequence[Operation], args: Sequence[Attribute] = ()) -> Region:
    """A one-block region of ``ops`` (arguments of types ``args``)."""
    block = Block(arg_types=args)
    block.add_ops(ops)
    return Region(block)


@irdl_op_definition
class BarrierOp(IRDLOperation):
    """``omp.barrier``: each thread of the team waits for all the others."""

    name = "omp.barrier"
    assembly_format = "attr-dict"


@irdl_op_definition
class TaskyieldOp(IRDLOperation):
    """``omp.taskyield``: the current task may be suspended for another."""

    name = "omp.taskyield"
    assembly_format = "attr-dict"


@irdl_op_definition
class TaskwaitOp(IRDLOperation):
    """``omp.taskwait``: waits for the child tasks of the current task
    (upstream's ``depend`` and ``nowait`` clauses are not read)."""

    name = "omp.taskwait"
    depend_vars = var_operand_def()
    depend_iterated = var_operand_def()
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @classmethod
    def parse(cls, parser: Parser) -> TaskwaitOp:
        attrs = parser.parse_optional_attr_dict()
        return cls.create(
            operands=[],
            properties={"operandSegmentSizes": DenseArrayBase.from_list(i32, [0, 0])},
            attributes=attrs,
        )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)


@irdl_op_definition
class FlushOp(IRDLOperation):
    """``omp.flush(%a, %b : memref<i32>, memref<i32>)``: makes the thread's
    view of the listed variables (of all memory, without a list) consistent."""

    name = "omp.flush"
    varList = var_operand_def()
    assembly_format = "( `(` $varList^ `:` type($varList) `)` )? attr-dict"


@irdl_op_definition
class MasterOp(IRDLOperation):
    """``omp.master { ... omp.terminator }``: only the team's master thread runs the region."""

    name = "omp.master"
    region = region_def()
    assembly_format = "$region attr-dict"


SYNC_OPS = [BarrierOp, TaskyieldOp, TaskwaitOp, FlushOp, MasterOp]

OpenMP = Dialect("omp", [ParallelOp, TerminatorOp, WsLoopOp, LoopNestOp, YieldOp, *SYNC_OPS], [])

__getattr__ = op_lookup(__name__, lambda: OpenMP)
