"""Shared pieces of mlkit's scf dialect: upstream's checks of the values
flowing along scf's control-flow edges.

Upstream verifies ``scf.if``/``for``/``while``/``execute_region`` through
``RegionBranchOpInterface``: every edge (from the parent into a region, from a
terminator back into a region or out to the parent's results) must carry as many
values as its target takes, of the same types. xDSL checks a few of these with
its own words and misses the rest (an ``scf.if`` yielding the wrong type
verifies); these helpers report them as upstream does.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Attribute, Operation, OpTraits, Region, SSAValue
from xdsl.irdl import IRDLOperation
from xdsl.parser import Parser
from xdsl.traits import HasParent, OpTrait
from xdsl.utils.exceptions import VerifyException

from mlkit.diagnostics.verifier import ErrorAt


def region_name(op: Operation, region: Region) -> str:
    return f"Region #{op.regions.index(region)}"


def check_edge(
    source: str, target: str, operands: Sequence[Attribute], inputs: Sequence[Attribute]
) -> None:
    """One edge: ``source`` passes values of types ``operands`` to ``target``,
    whose inputs have types ``inputs``."""
    prefix = f"along control flow edge from {source} to {target}: "
    if len(operands) != len(inputs):
        raise VerifyException(
            f"{prefix}region branch point has {len(operands)} operands, but region "
            f"successor needs {len(inputs)} inputs"
        )
    for i, (got, expected) in enumerate(zip(operands, inputs)):
        if got != expected:
            raise VerifyException(
                f"{prefix}successor operand type #{i} '{got}' should match successor "
                f"input type #{i} '{expected}'"
            )


def terminator_of(region: Region) -> Operation | None:
    block = region.blocks.first
    return block.last_op if block is not None and len(region.blocks) == 1 else None


def terminators(region: Region, name: str) -> list[Operation]:
    """The ops named ``name`` ending the blocks of ``region``."""
    return [
        block.last_op
        for block in region.blocks
        if block.last_op is not None and block.last_op.name == name
    ]


def parent_name(op: Operation) -> str:
    return f"Operation {op.name}"


def check_yields_to_parent(op: Operation, region: Region) -> None:
    """Each ``scf.yield`` of ``region`` against the results of ``op``."""
    for yield_op in terminators(region, "scf.yield"):
        check_edge(
            "Operation scf.yield",
            parent_name(op),
            [v.type for v in yield_op.operands],
            [r.type for r in op.results],
        )


def block_arg_types(region: Region, skip: int = 0) -> list[Attribute]:
    block = region.blocks.first
    return [a.type for a in block.args[skip:]] if block is not None else []


def xdsl_own_verify(op_class: type) -> Callable[[Any], None]:
    """The hand-written ``verify_`` of an xDSL op, without the IRDL checks its
    generated ``verify_`` runs first against xDSL's own (narrower) definition:
    a subclass with more properties must run its own IRDL checks instead."""
    wrapper = op_class.verify_
    cells = dict(zip(wrapper.__code__.co_freevars, wrapper.__closure__ or ()))
    custom = cells.get("custom_verify")
    return custom.cell_contents if custom is not None else (lambda op: None)


def check_loop_carried(
    op: Operation, inits: Sequence[SSAValue], results: Sequence[SSAValue], iter_types: list[Attribute]
) -> None:
    """``scf.for``'s loop-carried values, in upstream's order: the counts of
    inits, region iter_args, results and yielded values, then the edges."""
    if len(inits) != len(iter_types):
        raise VerifyException(
            f"different number of inits and region iter_args: {len(inits)} != {len(iter_types)}"
        )
    if len(inits) != len(results):
        raise VerifyException("mismatch in number of loop-carried values and defined values")
    yields = terminators(op.regions[0], "scf.yield")
    for yield_op in yields:
        if yield_op.operands and len(yield_op.operands) != len(iter_types):
            raise VerifyException(
                "different number of region iter_args and yielded values: "
                f"{len(iter_types)} != {len(yield_op.operands)}"
            )
    init_types = [v.type for v in inits]
    result_types = [r.type for r in results]
    check_edge("parent", "Region #0", init_types, iter_types)
    check_edge("parent", parent_name(op), init_types, result_types)
    for yield_op in yields:
        yielded = [v.type for v in yield_op.operands]
        check_edge("Operation scf.yield", "Region #0", yielded, iter_types)
        check_edge("Operation scf.yield", parent_name(op), yielded, result_types)


def expect_terminator(op: Operation, region: Region, kind: type[Operation], message: str) -> Operation:
    """Upstream's ``verifyAndGetTerminator``: the last op of ``region``'s first
    block must be a ``kind``; else ``message`` on ``op``, with a note at the
    op found there."""
    block = region.blocks.first
    last = block.last_op if block is not None else None
    if isinstance(last, kind):
        return last
    raise ErrorAt(None, message, [(last, "terminator here")] if last is not None else [])


def op_name_offset(parser: Parser, name: str) -> int:
    """Where the custom form's op name is written (upstream's ``getNameLoc``),
    for parse errors upstream reports at the op rather than at a token."""
    pos = parser.pos
    at = parser.lexer.input.content.rfind(name, 0, pos)
    return at if at >= 0 else pos


class ParentOneOf(HasParent):
    """``HasParent`` in upstream's words for several parents (``ParentOneOf``):
    ``expects parent op to be one of 'a, b'``, names in the order given."""

    def verify(self, op: Operation) -> None:
        parent = op.parent_op()
        if parent is None or isinstance(parent, self.op_types):
            return
        names = ", ".join(t.name for t in self.op_types)
        raise VerifyException(f"expects parent op to be one of '{names}'")


def set_traits(op_class: type[IRDLOperation], traits: Sequence[OpTrait]) -> None:
    """Give ``op_class`` exactly ``traits`` (IRDL merges the traits along the
    MRO, so a subclass cannot drop or replace one it inherits)."""
    kept = tuple(traits)
    op_def = op_class.get_irdl_definition()
    op_def.traits = op_class.traits = OpTraits(lambda: kept)  # type: ignore[misc]


def check_parent_first(op_class: type[IRDLOperation]) -> None:
    """Run the ``HasParent`` traits of ``op_class`` before its other checks, as
    upstream does where it lists ``HasParent`` first (``scf.reduce`` outside
    ``scf.parallel`` is reported as such, not as a misplaced terminator); xDSL
    keeps traits in a set, so their order is arbitrary."""
    verify = op_class.verify_

    def verify_parent_first(op: IRDLOperation) -> None:
        for trait in op.get_traits_of_type(HasParent):
            trait.verify(op)
        verify(op)

    op_class.verify_ = verify_parent_first  # type: ignore[method-assign]
