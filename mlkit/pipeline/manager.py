"""Building pass pipelines from MLIR's textual syntax and running them.

A pipeline is a tree of op-anchored pass managers, as upstream has it: a nested
``func.func(...)`` runs on each ``func.func`` directly inside the op its parent
runs on. Passes come from the registry; named pipelines expand in place.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException

from mlkit.diagnostics import Diagnostic, DiagnosticError, Severity
from mlkit.diagnostics.locations import op_loc
from mlkit.pipeline import progress
from mlkit.pipeline.ir_snapshot import Snapshot, snapshot
from mlkit.pipeline.options import PassOptionError, build_pass
from mlkit.pipeline.progress import SILENT, Silent
from mlkit.pipeline.statistics import STATS_ATTR, declared
from mlkit.pipeline.statistics import render as render_statistics
from mlkit.pipeline.syntax import OpPipeline, PassSpec, PipelineSyntaxError, parse_pipeline
from mlkit.registry import Registry
from mlkit.diagnostics.verifier import verify_op_tree

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

    from mlkit.pipeline.report import PassReport

ANY = "any"
PROGRESS_LABEL = "mlkit"  # a pipeline run on its own; mlkit-opt and mlkit.compile name theirs


class PipelineError(Exception):
    """A pipeline that cannot be built; ``offset`` points into ``text`` when known."""

    def __init__(self, message: str, text: str = "", offset: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.text = text
        self.offset = offset

    def render(self, source: str = "<pass-pipeline>") -> str:
        """One located error line, then the pipeline with a caret, as upstream does."""
        if self.offset is None or not self.text:
            return f"{source}: error: {self.message}\n"
        return (
            f"{source}:1:{self.offset + 1}: error: {self.message}\n"
            f"{self.text}\n{' ' * self.offset}^\n"
        )


class InternalError(Exception):
    """A bug in mlkit or a plugin, not in the user's input."""


@dataclass
class PassNode:
    """One scheduled pass instance."""

    name: str
    instance: ModulePass

    @property
    def display_name(self) -> str:
        cls = type(self.instance)
        return getattr(cls, "display_name", None) or cls.__name__

    @property
    def anchor(self) -> str | None:
        return getattr(type(self.instance), "anchor", None)


@dataclass
class OpPassManager:
    """Passes and nested pass managers that run on ops named ``anchor``."""

    anchor: str
    children: list[PassNode | OpPassManager] = field(default_factory=list["PassNode | OpPassManager"])

    def passes(self) -> Iterator[PassNode]:
        for child in self.children:
            if isinstance(child, PassNode):
                yield child
            else:
                yield from child.passes()

    def textual(self) -> str:
        parts = [
            c.textual() if isinstance(c, OpPassManager) else _pass_text(c) for c in self.children
        ]
        return f"{self.anchor}({','.join(parts)})"


def _pass_text(node: PassNode) -> str:
    """``name{opt=value ...}`` with upstream's dashed option names."""
    from mlkit.pipeline.options import pass_options_of
    from mlkit.pipeline.syntax import format_pipeline

    try:
        options = pass_options_of(node.instance, include_defaults=False)
        return format_pipeline(PassSpec(node.name, options))
    except (TypeError, ValueError):  # a pass whose fields are not plain options
        return node.name


class PipelineBuilder:
    """Turns textual pipelines and LLVM-style pass flags into an :class:`OpPassManager`."""

    def __init__(self, registry: Registry) -> None:
        self.registry = registry

    def parse(self, text: str, top_anchor: str | None = None) -> OpPassManager:
        """Parse ``builtin.module(...)``; a bare list of passes anchors on ``top_anchor``."""
        try:
            elements = parse_pipeline(text)
        except PipelineSyntaxError as exc:
            raise PipelineError(exc.message, text, exc.offset) from None
        if len(elements) == 1 and isinstance(elements[0], OpPipeline):
            root = elements[0]
            pm = OpPassManager(root.anchor)
            self._add_all(pm, root.elements, text)
            return pm
        pm = OpPassManager(top_anchor or ANY)
        self._add_all(pm, elements, text)
        return pm

    def add_flag(self, pm: OpPassManager, name: str, options_text: str | None) -> None:
        """Add a pass given as ``-name[=options]``, nesting implicitly like mlir-opt."""
        from mlkit.pipeline.syntax import parse_pass_options

        text = f"{name}{{{options_text}}}" if options_text else name
        try:
            options = parse_pass_options(options_text) if options_text else {}
        except PipelineSyntaxError as exc:
            raise PipelineError(exc.message, text, exc.offset + len(name) + 1) from None
        self._add_pass(pm, PassSpec(name, options, 0), text, implicit_nesting=True)

    def _add_all(self, pm: OpPassManager, elements: list[Any], text: str) -> None:
        for element in elements:
            if isinstance(element, OpPipeline):
                nested = OpPassManager(element.anchor)
                if "." not in element.anchor and element.anchor != ANY:
                    raise PipelineError(
                        f"'{element.anchor}' is not an operation name to nest a pipeline on",
                        text,
                        element.offset,
                    )
                self._add_all(nested, element.elements, text)
                pm.children.append(nested)
            else:
                self._add_pass(pm, element, text, implicit_nesting=False)

    def _add_pass(
        self, pm: OpPassManager, spec: PassSpec, text: str, *, implicit_nesting: bool
    ) -> None:
        registry = self.registry
        if spec.name in registry.pipelines:
            cls = registry.pipelines[spec.name].load()
            instance = self._build(cls, spec, text)
            expansion = instance.pipeline()
            try:
                elements = parse_pipeline(expansion)
            except PipelineSyntaxError as exc:
                raise InternalError(
                    f"pipeline '{spec.name}' expands to a malformed pipeline: {exc.message}"
                ) from None
            self._add_all(pm, elements, expansion)
            return
        entry = registry.passes.get(spec.name)
        if entry is None:
            raise PipelineError(
                f"'{spec.name}' does not refer to a registered pass or pass pipeline",
                text,
                spec.offset,
            )
        node = PassNode(spec.name, self._build(entry.load(), spec, text))
        anchor = node.anchor
        if anchor is not None and anchor != pm.anchor:
            if implicit_nesting and pm.anchor != anchor:
                pm.children.append(OpPassManager(anchor, [node]))
                return
            raise PipelineError(
                f"pass '{spec.name}' runs on '{anchor}' ops and cannot be scheduled "
                f"on a '{pm.anchor}' pipeline; nest it as {anchor}({spec.name})",
                text,
                spec.offset,
            )
        pm.children.append(node)

    def _build(self, cls: type[Any], spec: PassSpec, text: str) -> Any:
        try:
            return build_pass(cls, spec.options, spec.name)
        except PassOptionError as exc:
            raise PipelineError(str(exc), text, spec.offset) from None


@dataclass
class Instrumentation:
    """What mlir-opt's ``--mlir-print-ir-*`` and ``--mlir-timing`` flags ask for."""

    print_before_all: bool = False
    print_after_all: bool = False
    print_before: frozenset[str] = frozenset()
    print_after: frozenset[str] = frozenset()
    print_after_change: bool = False
    print_module_scope: bool = False
    timing: bool = False
    dump: Callable[[str], None] = print
    printer: Callable[[Operation], str] = str
    report: PassReport | None = None  # --pass-report: every pass's IR before and after

    @property
    def wants_print(self) -> bool:
        return bool(
            self.print_before_all
            or self.print_after_all
            or self.print_before
            or self.print_after
            or self.print_after_change
        )


@dataclass
class TimingRecord:
    name: str
    seconds: float = 0.0
    children: list[TimingRecord] = field(default_factory=list["TimingRecord"])


class PassRunner:
    """Runs an :class:`OpPassManager` over IR with verification and instrumentation."""

    def __init__(
        self,
        ctx: Context,
        instrumentation: Instrumentation | None = None,
        verify_each: bool = True,
        name_failing_pass: bool = True,
    ) -> None:
        self.ctx = ctx
        self.inst = instrumentation or Instrumentation()
        self.verify_each = verify_each
        # a note naming the pass after which verification failed; off under
        # --verify-diagnostics, where upstream's tests expect only the error
        self.name_failing_pass = name_failing_pass
        self.timing = TimingRecord("root")
        self.statistics: dict[int, Counter[str]] = {}  # per pass node: what it counted
        self._progress: Silent = SILENT
        self._steps: dict[int, int] = {}  # id(pass node) -> its place in the pipeline, from 1
        self._total = 0
        # per root op: a snapshot of it when it last verified (see ir_snapshot)
        self._verified: dict[Operation, Snapshot] = {}

    def run(self, pm: OpPassManager, op: Operation) -> None:
        if pm.anchor not in (ANY, op.name):
            raise DiagnosticError(
                Diagnostic(
                    Severity.ERROR,
                    f"can't run '{pm.anchor}' pass manager on '{op.name}' op",
                    op_loc(op),
                )
            )
        try:
            self._run_reporting(pm, op)
        finally:
            self._verified.clear()  # the snapshots would keep erased IR alive

    def _run_reporting(self, pm: OpPassManager, op: Operation) -> None:
        with progress.reporting(PROGRESS_LABEL) as line:
            # a pipeline run inside a pass of another keeps to the outer count
            if line is SILENT or line.pipeline_depth:
                self._run_pm(pm, op, self.timing)
                return
            self._progress = line
            self._steps = {id(node): i for i, node in enumerate(pm.passes(), 1)}
            self._total = len(self._steps)
            line.pipeline_depth += 1
            try:
                self._run_pm(pm, op, self.timing)
            finally:
                line.pipeline_depth -= 1
                self._progress = SILENT

    def _run_pm(self, pm: OpPassManager, op: Operation, timing: TimingRecord) -> None:
        for child in pm.children:
            if isinstance(child, PassNode):
                record = _child_record(timing, f"{child.display_name}")
                self._progress.step(self._steps.get(id(child), 0), self._total, child.name)
                start = time.perf_counter()
                self._run_pass(child, op)
                record.seconds += time.perf_counter() - start
                continue
            record = _child_record(timing, f"'{child.anchor}' Pipeline")
            start = time.perf_counter()
            for nested in [
                o
                for region in op.regions
                for block in region.blocks
                for o in block.ops
                if child.anchor in (ANY, o.name)
            ]:
                self._run_pm(child, nested, record)
            record.seconds += time.perf_counter() - start

    def _run_pass(self, node: PassNode, op: Operation) -> None:
        inst = self.inst
        before = None
        if inst.print_before_all or node.name in inst.print_before:
            self._dump("Before", node, op)
        if inst.print_after_change:
            before = inst.printer(self._scope(op))
        reported = inst.printer(_top(op)) if inst.report is not None else None
        start = time.perf_counter()
        counts: Counter[str] = Counter()
        setattr(self.ctx, STATS_ATTR, counts)
        try:
            node.instance.apply(self.ctx, op)  # pyright: ignore[reportArgumentType]
        except DiagnosticError:
            raise
        except DiagnosticException as exc:
            message = str(exc).strip().splitlines()[0] if str(exc).strip() else "pass failed"
            raise DiagnosticError(Diagnostic(Severity.ERROR, message, op_loc(op))) from None
        except RecursionError:
            raise DiagnosticError(
                Diagnostic(Severity.ERROR, f"nesting too deep for pass '{node.name}'", op_loc(op))
            ) from None
        except Exception as exc:
            if not self.verify_each:  # a pass may have crashed on IR an earlier one broke
                self._blame_unverified(node, op)
            raise InternalError(
                f"pass '{node.name}' crashed: {type(exc).__name__}: {exc}"
            ) from exc
        finally:
            setattr(self.ctx, STATS_ATTR, None)
            self.statistics.setdefault(id(node), Counter()).update(counts)
        if self.verify_each:
            try:
                self._verify(op)
            except DiagnosticError as err:
                if not self.name_failing_pass:
                    raise
                err.diagnostic.notes.append(
                    Diagnostic(
                        Severity.NOTE,
                        f"the IR failed to verify after pass '{node.name}'",
                        op_loc(op),
                    )
                )
                raise
        if inst.report is not None and reported is not None:
            seconds = time.perf_counter() - start
            after = inst.printer(_top(op))
            inst.report.record(node.name, node.display_name, _where(op), seconds, reported, after)
        if inst.print_after_all or node.name in inst.print_after:
            self._dump("After", node, op)
        elif before is not None and inst.printer(self._scope(op)) != before:
            self._dump("After", node, op)

    def _verify(self, op: Operation) -> None:
        """``--verify-each``, skipped when the pass left ``op`` as it was when it
        last verified (upstream skips it after a pass that preserved everything)."""
        after = snapshot(op)
        last = self._verified.get(op)
        if last == after:  # see ir_snapshot: identity, else equal values
            return
        verify_op_tree(op)
        self._verified[op] = after

    def _blame_unverified(self, node: PassNode, op: Operation) -> None:
        """Raise the verifier's located error if the IR a pass crashed on is
        invalid: with ``--verify-each=false`` an earlier pass may have broken it."""
        try:
            verify_op_tree(op)
        except DiagnosticError as err:
            err.diagnostic.notes.append(
                Diagnostic(
                    Severity.NOTE,
                    f"pass '{node.name}' failed on IR that does not verify (the passes "
                    "were run without --verify-each)",
                    op_loc(op),
                )
            )
            raise err from None
        except Exception:  # the verifier itself cannot make sense of it: the crash stands
            return

    def _scope(self, op: Operation) -> Operation:
        if not self.inst.print_module_scope:
            return op
        while (parent := op.parent_op()) is not None:
            op = parent
        return op

    def _dump(self, when: str, node: PassNode, op: Operation) -> None:
        scope = self._scope(op)
        where = f" ({_where(op)})" if op.parent_op() is not None else ""
        header = f"// -----// IR Dump {when} {node.display_name} ({node.name}){where} //----- //"
        text = f"{header}\n{self.inst.printer(scope)}\n\n"
        with progress.paused():  # on a clean line, not after the progress line
            self.inst.dump(text)


def statistics_report(
    pm: OpPassManager, statistics: dict[int, Counter[str]], display: str = "pipeline"
) -> str:
    """``--mlir-pass-statistics``: each pass of ``pm`` with what it counted."""
    rows: list[tuple[int, str, tuple[tuple[str, str], ...], Counter[str]]] = []

    def walk(manager: OpPassManager, depth: int) -> None:
        for child in manager.children:
            if isinstance(child, PassNode):
                counts = statistics.get(id(child), Counter())
                rows.append((depth, child.display_name, declared(type(child.instance)), counts))
            else:
                rows.append((depth, f"'{child.anchor}' Pipeline", (), Counter()))
                walk(child, depth + 1)

    walk(pm, 0)
    return render_statistics(rows, display)


def _top(op: Operation) -> Operation:
    while (parent := op.parent_op()) is not None:
        op = parent
    return op


def _where(op: Operation) -> str:
    """The op a pass runs on, as the IR dumps name it: ``'func.func'
    operation: @f``; nothing for the top-level module."""
    if op.parent_op() is None:
        return ""
    sym = op.attributes.get("sym_name") or op.properties.get("sym_name")
    label = f": @{sym.data}" if sym is not None and hasattr(sym, "data") else ""
    return f"'{op.name}' operation{label}"


def _child_record(parent: TimingRecord, name: str) -> TimingRecord:
    for child in parent.children:
        if child.name == name:
            return child
    record = TimingRecord(name)
    parent.children.append(record)
    return record


def timing_report(
    timing: TimingRecord, total: float, parse: float, output: float, display: str = "tree"
) -> str:
    """Upstream's ``--mlir-timing`` report layout, wall time only; ``display``
    is ``--mlir-timing-display``: ``tree`` (upstream's default) nests each
    pipeline's passes under it, ``list`` merges the timers of one name and
    sorts them by time."""
    bar = "===" + "-" * 73 + "==="
    title = "... Execution time report ..."
    lines = [bar, title.center(len(bar)).rstrip(), bar]
    lines.append(f"  Total Execution Time: {total:.4f} seconds")
    lines.append("")
    lines.append("  ----Wall Time----  ----Name----")

    def row(seconds: float, name: str, depth: int) -> None:
        pct = 100.0 * seconds / total if total > 0 else 0.0
        lines.append(f"  {seconds:8.4f} ({pct:5.1f}%)  {'  ' * depth}{name}")

    def walk(record: TimingRecord, depth: int) -> None:
        for child in record.children:
            row(child.seconds, child.name, depth)
            walk(child, depth + 1)

    if display == "list":
        merged: dict[str, float] = {"Parser": parse, "Output": output}
        stack = list(timing.children)
        while stack:
            record = stack.pop()
            merged[record.name] = merged.get(record.name, 0.0) + record.seconds
            stack.extend(record.children)
        for name, seconds in sorted(merged.items(), key=lambda item: -item[1]):
            row(seconds, name, 0)
    else:
        row(parse, "Parser", 0)
        walk(timing, 0)
        row(output, "Output", 0)
    row(total, "Total", 0)
    return "\n".join(lines) + "\n"
