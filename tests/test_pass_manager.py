"""Tests for mlkit.pipeline.manager: building pipelines from text and flags,
op-anchored nesting, running with verification and IR-printing instrumentation."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mlkit.context import make_context
from mlkit.diagnostics import DiagnosticError, Severity
from mlkit.syntax.parser import parse_module
from mlkit.pipeline.manager import (
    ANY,
    Instrumentation,
    InternalError,
    OpPassManager,
    PassNode,
    PassRunner,
    PipelineBuilder,
    PipelineError,
)
from mlkit.plugins import load_entry_point_plugins, load_plugin
from mlkit.syntax.printer import print_op
from mlkit.registry import Registry

TOY_PLUGIN = Path(__file__).resolve().parents[1] / "lit_tests" / "Plugins" / "Inputs" / "toy_plugin.py"

# ops each recording pass saw, as "name:@symbol" (or the op name when it has none)
SEEN: list[str] = []


def _label(op: Operation) -> str:
    sym = op.properties.get("sym_name") or op.attributes.get("sym_name")
    return f"{op.name}:@{sym.data}" if sym is not None else op.name  # type: ignore[union-attr]


@dataclass(frozen=True)
class FuncRecorder(ModulePass):
    """Record each function it runs on (a function pass)."""

    name = "func-recorder"
    anchor: ClassVar[str] = "func.func"
    tag: str = "r"

    def apply(self, ctx: Context, op: Operation) -> None:  # type: ignore[override]
        SEEN.append(f"{self.tag}:{_label(op)}")


@dataclass(frozen=True)
class AnyRecorder(ModulePass):
    """Record each op it runs on (no anchor)."""

    name = "any-recorder"

    def apply(self, ctx: Context, op: Operation) -> None:  # type: ignore[override]
        SEEN.append(_label(op))


@pytest.fixture
def registry() -> Registry:
    reg = Registry()
    load_entry_point_plugins(reg)
    load_plugin(str(TOY_PLUGIN), reg)
    reg.register_pass(FuncRecorder)
    reg.register_pass(AnyRecorder)
    SEEN.clear()
    return reg


@pytest.fixture
def builder(registry: Registry) -> PipelineBuilder:
    return PipelineBuilder(registry)


def shape(pm: OpPassManager) -> tuple[str, list[object]]:
    """The tree of anchors and pass names."""
    return pm.anchor, [shape(c) if isinstance(c, OpPassManager) else c.name for c in pm.children]


NESTED = """\
func.func @a() {
  return
}
builtin.module @inner {
  func.func @hidden() {
    return
  }
}
func.func @b() {
  return
}
"""

DUPLICATES = """\
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
"""


def parse(registry: Registry, text: str) -> tuple[Context, Operation]:
    ctx = make_context(registry)
    return ctx, parse_module(ctx, text, "in.mlir")


# ---------------------------------------------------------------- parsing pipelines


def test_parse_nested_anchors(builder: PipelineBuilder) -> None:
    pm = builder.parse(
        "builtin.module(func.func(cse,canonicalize),convert-scf-to-cf,"
        "builtin.module(func.func(cse)))"
    )
    assert shape(pm) == (
        "builtin.module",
        [
            ("func.func", ["cse", "canonicalize"]),
            "convert-scf-to-cf",
            ("builtin.module", [("func.func", ["cse"])]),
        ],
    )
    assert [p.name for p in pm.passes()] == ["cse", "canonicalize", "convert-scf-to-cf", "cse"]
    assert pm.textual() == (
        "builtin.module(func.func(cse,canonicalize),convert-scf-to-cf,"
        "builtin.module(func.func(cse)))"
    )


def test_parse_bare_list_uses_top_anchor(builder: PipelineBuilder) -> None:
    assert shape(builder.parse("cse,canonicalize")) == (ANY, ["cse", "canonicalize"])
    assert shape(builder.parse("cse", top_anchor="builtin.module")) == ("builtin.module", ["cse"])


def test_parse_passes_options(builder: PipelineBuilder) -> None:
    pm = builder.parse("builtin.module(toy-fold{factor=3},func.func(func-recorder{tag=x}))")
    fold, nested = pm.children
    assert isinstance(fold, PassNode) and fold.instance.factor == 3  # type: ignore[attr-defined]
    assert isinstance(nested, OpPassManager)
    (rec,) = nested.children
    assert isinstance(rec, PassNode) and rec.instance == FuncRecorder(tag="x")
    default = builder.parse("builtin.module(toy-fold)").children[0]
    assert default.instance.factor == 2  # type: ignore[union-attr]


@pytest.mark.parametrize(
    "text, message, offset",
    [
        (
            "builtin.module(cse,nope)",
            "'nope' does not refer to a registered pass or pass pipeline",
            19,
        ),
        ("builtin.module(toy-fold{bogus=1})", "pass 'toy-fold' has no option 'bogus'", 15),
        (
            "builtin.module(toy-fold{factor=abc})",
            "invalid value 'abc' for option 'factor' of pass 'toy-fold': expected an integer",
            15,
        ),
        (
            "builtin.module(func.func(cse)",
            "encountered unbalanced parentheses while parsing pipeline",
            14,
        ),
        (
            "builtin.module(cse))",
            "encountered extra closing ')' creating unbalanced parentheses while parsing pipeline",
            19,
        ),
    ],
)
def test_parse_errors(builder: PipelineBuilder, text: str, message: str, offset: int) -> None:
    with pytest.raises(PipelineError) as info:
        builder.parse(text)
    err = info.value
    assert (err.message, err.offset, err.text) == (message, offset, text)
    assert err.render() == (
        f"<pass-pipeline>:1:{offset + 1}: error: {message}\n{text}\n{' ' * offset}^\n"
    )


def test_render_without_offset() -> None:
    assert PipelineError("bad").render("x") == "x: error: bad\n"


# ---------------------------------------------------------------- flags and anchors


def test_add_flag_nests_anchored_pass_implicitly(builder: PipelineBuilder) -> None:
    pm = OpPassManager("builtin.module")
    builder.add_flag(pm, "cse", None)
    builder.add_flag(pm, "func-recorder", "tag=t")
    builder.add_flag(pm, "toy-fold", "factor=5")
    assert shape(pm) == ("builtin.module", ["cse", ("func.func", ["func-recorder"]), "toy-fold"])
    nested = pm.children[1]
    assert isinstance(nested, OpPassManager)
    assert nested.children[0].instance == FuncRecorder(tag="t")  # type: ignore[union-attr]
    assert pm.children[2].instance.factor == 5  # type: ignore[union-attr]


def test_add_flag_bad_options(builder: PipelineBuilder) -> None:
    pm = OpPassManager("builtin.module")
    with pytest.raises(PipelineError) as info:
        builder.add_flag(pm, "toy-fold", "factor=x")
    assert "invalid value 'x' for option 'factor' of pass 'toy-fold'" in info.value.message
    with pytest.raises(PipelineError) as info:
        builder.add_flag(pm, "toy-fold", "factor={")
    assert info.value.offset is not None and info.value.offset > len("toy-fold")
    assert pm.children == []


def test_anchored_pass_at_module_level_is_an_error(builder: PipelineBuilder) -> None:
    text = "builtin.module(cse,func-recorder)"
    with pytest.raises(PipelineError) as info:
        builder.parse(text)
    assert info.value.message == (
        "pass 'func-recorder' runs on 'func.func' ops and cannot be scheduled on a "
        "'builtin.module' pipeline; nest it as func.func(func-recorder)"
    )
    assert info.value.offset == text.index("func-recorder")
    # nested explicitly, it is fine
    ok = builder.parse("builtin.module(func.func(func-recorder))")
    assert shape(ok) == ("builtin.module", [("func.func", ["func-recorder"])])


def test_nest_on_non_op_name_is_an_error(builder: PipelineBuilder) -> None:
    with pytest.raises(PipelineError) as info:
        builder.parse("builtin.module(foo(cse))")
    assert "foo" in info.value.message and info.value.offset == 15


# ---------------------------------------------------------------- running


def test_nested_pipeline_runs_on_direct_children_only(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, NESTED)
    PassRunner(ctx).run(builder.parse("builtin.module(func.func(func-recorder))"), module)
    assert SEEN == ["r:func.func:@a", "r:func.func:@b"]


def test_flag_pipeline_runs_on_functions(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, NESTED)
    pm = OpPassManager("builtin.module")
    builder.add_flag(pm, "func-recorder", None)
    PassRunner(ctx).run(pm, module)
    assert SEEN == ["r:func.func:@a", "r:func.func:@b"]


def test_doubly_nested_pipeline(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, NESTED)
    pm = builder.parse("builtin.module(any-recorder,builtin.module(any-recorder,func.func(func-recorder{tag=n})))")
    PassRunner(ctx).run(pm, module)
    assert SEEN == ["builtin.module", "builtin.module:@inner", "n:func.func:@hidden"]


def test_any_anchor_runs_on_every_direct_child(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, NESTED)
    PassRunner(ctx).run(builder.parse("builtin.module(any(any-recorder))"), module)
    assert SEEN == ["func.func:@a", "builtin.module:@inner", "func.func:@b"]


def test_runner_rejects_wrong_root(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, NESTED)
    func = next(iter(module.regions[0].block.ops))
    with pytest.raises(DiagnosticError, match="can't run 'builtin.module' pass manager on 'func.func' op"):
        PassRunner(ctx).run(builder.parse("builtin.module(cse)"), func)


def test_passes_transform_ir(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, DUPLICATES)
    PassRunner(ctx).run(builder.parse("builtin.module(func.func(cse))"), module)
    assert print_op(module).count("arith.addi") == 1


def test_verify_each_catches_broken_ir(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, "%0 = toy.const 3\n")
    with pytest.raises(DiagnosticError) as info:
        PassRunner(ctx).run(builder.parse("builtin.module(toy-break)"), module)
    diag = info.value.diagnostic
    assert diag.severity is Severity.ERROR
    assert diag.message == "'toy.const' op value must be non-negative"
    assert (diag.loc.file, diag.loc.line, diag.loc.col) == ("in.mlir", 1, 1)
    assert [n.message for n in diag.notes] == ["the IR failed to verify after pass 'toy-break'"]
    assert diag.notes[0].severity is Severity.NOTE


def test_verify_each_skips_unchanged_ir_only(
    registry: Registry, builder: PipelineBuilder, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As upstream skips verifying after a pass that preserved everything:
    passes that change nothing are not re-verified, and a later pass that
    breaks the IR (here by replacing an attribute in place) still is."""
    import mlkit.pipeline.manager as manager

    calls: list[str] = []
    real = manager.verify_op_tree
    monkeypatch.setattr(manager, "verify_op_tree", lambda op: (calls.append(op.name), real(op)))
    ctx, module = parse(registry, "%0 = toy.const 3\n")
    PassRunner(ctx).run(builder.parse("builtin.module(any-recorder,any-recorder,any-recorder)"), module)
    assert calls == ["builtin.module"]  # the first run has nothing to compare with
    calls.clear()
    with pytest.raises(DiagnosticError, match="must be non-negative"):
        PassRunner(ctx).run(builder.parse("builtin.module(any-recorder,any-recorder,toy-break)"), module)
    assert calls == ["builtin.module", "builtin.module"]


def test_verify_each_off(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, "%0 = toy.const 3\n")
    PassRunner(ctx, verify_each=False).run(builder.parse("builtin.module(toy-break)"), module)
    assert "toy.const -1" in print_op(module)


def test_failing_pass_keeps_its_location(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, "func.func @f() {\n  return\n}\n%0 = toy.const 7\n")
    with pytest.raises(DiagnosticError) as info:
        PassRunner(ctx).run(builder.parse("builtin.module(toy-fail)"), module)
    diag = info.value.diagnostic
    assert diag.message == "toy-fail refuses this constant"
    assert (diag.loc.line, diag.loc.col) == (4, 1)


def test_crashing_pass_is_an_internal_error(registry: Registry, builder: PipelineBuilder) -> None:
    ctx, module = parse(registry, "%0 = toy.const 3\n")
    with pytest.raises(InternalError) as info:
        PassRunner(ctx).run(builder.parse("builtin.module(toy-crash)"), module)
    assert str(info.value) == "pass 'toy-crash' crashed: KeyError: 'oops'"
    assert isinstance(info.value.__cause__, KeyError)


# ---------------------------------------------------------------- instrumentation


def run_printing(
    registry: Registry, pipeline: str, text: str = DUPLICATES, **flags: object
) -> list[str]:
    dumps: list[str] = []
    ctx, module = parse(registry, text)
    inst = Instrumentation(dump=dumps.append, printer=print_op, **flags)  # type: ignore[arg-type]
    PassRunner(ctx, inst).run(PipelineBuilder(registry).parse(pipeline), module)
    return dumps


def headers(dumps: list[str]) -> list[str]:
    return [d.splitlines()[0] for d in dumps]


def test_print_after_all(registry: Registry) -> None:
    dumps = run_printing(registry, "builtin.module(cse,canonicalize)", print_after_all=True)
    assert headers(dumps) == [
        "// -----// IR Dump After CSE (cse) //----- //",
        "// -----// IR Dump After Canonicalizer (canonicalize) //----- //",
    ]
    # each dump is the header, the IR after that pass, then a blank line
    assert dumps[0].count("arith.addi") == 1
    assert dumps[0].endswith("}\n\n")
    assert dumps[0].splitlines()[1] == "module {"


def test_print_before_all(registry: Registry) -> None:
    dumps = run_printing(registry, "builtin.module(cse)", print_before_all=True)
    assert headers(dumps) == ["// -----// IR Dump Before CSE (cse) //----- //"]
    assert dumps[0].count("arith.addi") == 2


def test_print_after_change(registry: Registry) -> None:
    dumps = run_printing(registry, "builtin.module(cse,cse,toy-fold)", print_after_change=True)
    assert headers(dumps) == ["// -----// IR Dump After CSE (cse) //----- //"]


def test_print_after_named_pass(registry: Registry) -> None:
    dumps = run_printing(
        registry, "builtin.module(cse,canonicalize)", print_after=frozenset({"canonicalize"})
    )
    assert headers(dumps) == ["// -----// IR Dump After Canonicalizer (canonicalize) //----- //"]


def test_print_nested_pass_names_the_op(registry: Registry) -> None:
    dumps = run_printing(registry, "builtin.module(func.func(cse))", print_after_all=True)
    assert headers(dumps) == [
        "// -----// IR Dump After CSE (cse) ('func.func' operation: @f) //----- //"
    ]
    assert dumps[0].splitlines()[1].startswith("func.func @f")
    scoped = run_printing(
        registry,
        "builtin.module(func.func(cse))",
        print_after_all=True,
        print_module_scope=True,
    )
    assert scoped[0].splitlines()[1] == "module {"
