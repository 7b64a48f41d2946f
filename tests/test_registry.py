"""Tests for mlkit.registry and mlkit.context: registering dialects, passes,
named pipelines and emitters; name clashes; lazy loading; contexts that parse
registered and core dialects."""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from dataclasses import dataclass
from typing import Any

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, UnregisteredOp
from xdsl.ir import Dialect, Operation
from xdsl.irdl import IRDLOperation, irdl_op_definition
from xdsl.passes import ModulePass

from mlkit.context import make_context
from mlkit.diagnostics import DiagnosticError
from mlkit.syntax.parser import parse_module
from mlkit.dialects import DIALECTS
from mlkit.dialects import register as register_builtin_dialects
from mlkit.registry import BUILTIN_DIALECT, Registry, RegistryError
from mlkit.diagnostics.verifier import verify_op_tree

# ---------------------------------------------------------------- fixtures


@irdl_op_definition
class WidgetOp(IRDLOperation):
    name = "widget.op"
    assembly_format = "attr-dict"


Widget = Dialect("widget", [WidgetOp])


@irdl_op_definition
class GadgetOp(IRDLOperation):
    name = "gadget.op"
    assembly_format = "attr-dict"


Gadget = Dialect("gadget", [GadgetOp])


@dataclass(frozen=True)
class Documented(ModulePass):
    """Do a documented thing.

    More details that are not part of the summary.
    """

    name = "documented"
    level: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class Undocumented(ModulePass):
    name = "undocumented"
    level: int = 1

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass(frozen=True)
class OtherDocumented(ModulePass):
    """Another pass that claims the name 'documented'."""

    name = "documented"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        pass


@dataclass
class FastPipeline:
    """Run the fast cleanup pipeline."""

    name = "fast-pipeline"
    aggressive: bool = False

    def pipeline(self) -> str:
        return "cse,canonicalize" if self.aggressive else "cse"


class Counter:
    """A factory that counts its calls."""

    def __init__(self, result: Any) -> None:
        self.result = result
        self.calls = 0

    def __call__(self) -> Any:
        self.calls += 1
        return self.result


def upper_emitter(module: Operation, ctx: Context) -> str:
    return "EMITTED " + module.name.upper() + "\n"


# ---------------------------------------------------------------- dialects


def test_register_dialect_object() -> None:
    reg = Registry()
    reg.register_dialect(Widget)
    assert list(reg.dialects) == ["widget"]
    assert reg.load_dialect("widget") is Widget
    assert reg.dialects["widget"].source == "<api>"
    assert "widget" in reg.dialect_names()


def test_register_dialect_name_and_factory() -> None:
    reg = Registry()
    factory = Counter(Widget)
    reg.register_dialect("widget", factory)
    assert factory.calls == 0  # registration is free
    assert reg.load_dialect("widget") is Widget
    assert factory.calls == 1


def test_register_dialect_module_attr_path() -> None:
    reg = Registry()
    reg.register_dialect("widget", f"{__name__}:Widget")
    assert reg.load_dialect("widget") is Widget


def test_register_dialect_name_without_factory() -> None:
    reg = Registry()
    with pytest.raises(RegistryError, match="dialect 'widget' registered without a factory"):
        reg.register_dialect("widget")


def _with_builtin_dialects() -> Registry:
    reg = Registry()
    reg.current_source = "plugin 'dialects' (mlkit.dialects)"
    register_builtin_dialects(reg)
    reg.current_source = "plugin 'mine.py'"
    return reg


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_dialect_may_not_shadow_builtin_plugin_dialect(name: str) -> None:
    reg = _with_builtin_dialects()
    with pytest.raises(RegistryError) as info:
        reg.register_dialect(name, lambda: Widget)
    assert str(info.value) == (
        f"dialect '{name}' is already registered by plugin 'dialects' (mlkit.dialects)"
    )
    assert reg.dialects[name].source == "plugin 'dialects' (mlkit.dialects)"


def test_dialect_object_named_like_builtin_plugin_dialect() -> None:
    reg = _with_builtin_dialects()
    with pytest.raises(RegistryError, match=r"dialect 'arith' is already registered by plugin 'dialects'"):
        reg.register_dialect(Dialect("arith", []))


def test_builtin_dialect_name_is_reserved() -> None:
    with pytest.raises(RegistryError, match=r"dialect 'builtin' is already registered \(the IR's own dialect\)"):
        Registry().register_dialect(Dialect("builtin", []))


def test_dialect_vs_dialect_clash_names_previous_source() -> None:
    reg = Registry()
    reg.current_source = "plugin 'first.py'"
    reg.register_dialect(Widget)
    reg.current_source = "plugin 'second.py'"
    with pytest.raises(RegistryError) as info:
        reg.register_dialect("widget", f"{__name__}:Widget")
    assert str(info.value) == "dialect 'widget' is already registered by plugin 'first.py'"
    # the first registration is untouched
    assert reg.dialects["widget"].source == "plugin 'first.py'"


def test_dialect_names_sorted_and_include_builtin() -> None:
    reg = Registry()
    reg.register_dialect(Widget)
    reg.register_dialect(Gadget)
    names = reg.dialect_names()
    assert names == sorted(names)
    assert {BUILTIN_DIALECT[0], "widget", "gadget"} == set(names)


# ---------------------------------------------------------------- passes


def test_register_pass_class_uses_name_and_docstring_summary() -> None:
    reg = Registry()
    reg.register_pass(Documented)
    entry = reg.passes["documented"]
    assert entry.load() is Documented
    assert entry.summary == "Do a documented thing."
    assert entry.source == "<api>"


def test_register_pass_explicit_summary_wins() -> None:
    reg = Registry()
    reg.register_pass(Documented, summary="Custom summary")
    assert reg.passes["documented"].summary == "Custom summary"


def test_undocumented_dataclass_pass_has_empty_summary() -> None:
    reg = Registry()
    reg.register_pass(Undocumented)
    assert reg.passes["undocumented"].summary == ""


def test_register_pass_lazy_factory() -> None:
    reg = Registry()
    factory = Counter(Documented)
    reg.register_pass("documented", factory, summary="lazy one")
    assert factory.calls == 0
    entry = reg.passes["documented"]
    assert entry.summary == "lazy one"
    assert entry.load() is Documented
    assert factory.calls == 1


def test_register_pass_lazy_module_attr_path() -> None:
    reg = Registry()
    reg.register_pass("documented", f"{__name__}:Documented")
    assert reg.passes["documented"].load() is Documented
    assert reg.passes["documented"].summary == ""


def test_register_pass_name_without_factory() -> None:
    with pytest.raises(RegistryError, match="pass 'x' registered without a factory"):
        Registry().register_pass("x")


def test_register_pass_class_without_name() -> None:
    class Nameless(ModulePass):
        def apply(self, ctx: Context, op: ModuleOp) -> None:
            pass

    with pytest.raises(RegistryError, match="pass class Nameless has no 'name'"):
        Registry().register_pass(Nameless)


def test_pass_vs_pass_clash() -> None:
    reg = Registry()
    reg.current_source = "plugin 'a.py'"
    reg.register_pass(Documented)
    reg.current_source = "plugin 'b.py'"
    with pytest.raises(RegistryError) as info:
        reg.register_pass(OtherDocumented)
    assert str(info.value) == "pass 'documented' is already registered by plugin 'a.py'"
    assert reg.passes["documented"].load() is Documented


def test_lazy_pass_vs_pass_clash() -> None:
    reg = Registry()
    reg.register_pass(Documented)
    with pytest.raises(RegistryError, match="pass 'documented' is already registered by <api>"):
        reg.register_pass("documented", lambda: OtherDocumented)


# ---------------------------------------------------------------- pipelines


def test_register_pipeline_class() -> None:
    reg = Registry()
    reg.register_pipeline(FastPipeline)
    entry = reg.pipelines["fast-pipeline"]
    assert entry.load() is FastPipeline
    assert entry.summary == "Run the fast cleanup pipeline."
    assert "fast-pipeline" not in reg.passes


def test_register_pipeline_lazy() -> None:
    reg = Registry()
    factory = Counter(FastPipeline)
    reg.register_pipeline("fast-pipeline", factory, summary="fast")
    assert factory.calls == 0
    assert reg.pipelines["fast-pipeline"].load() is FastPipeline
    assert reg.pipelines["fast-pipeline"].summary == "fast"


def test_register_pipeline_without_factory_or_name() -> None:
    reg = Registry()
    with pytest.raises(RegistryError, match="pipeline 'p' registered without a factory"):
        reg.register_pipeline("p")

    class NoName:
        pass

    with pytest.raises(RegistryError, match="pipeline class NoName has no 'name'"):
        reg.register_pipeline(NoName)


def test_pipeline_vs_pass_clash_both_ways() -> None:
    @dataclass
    class Clashing:
        name = "documented"

        def pipeline(self) -> str:
            return "cse"

    reg = Registry()
    reg.register_pass(Documented)
    with pytest.raises(RegistryError, match="pass 'documented' is already registered by <api>"):
        reg.register_pipeline(Clashing)
    assert "documented" not in reg.pipelines

    reg = Registry()
    reg.current_source = "plugin 'pipes.py'"
    reg.register_pipeline(FastPipeline)
    reg.current_source = "plugin 'passes.py'"
    with pytest.raises(
        RegistryError, match="pipeline 'fast-pipeline' is already registered by plugin 'pipes.py'"
    ):
        reg.register_pass("fast-pipeline", lambda: Documented)
    assert "fast-pipeline" not in reg.passes


def test_pipeline_vs_pipeline_clash() -> None:
    reg = Registry()
    reg.register_pipeline(FastPipeline)
    with pytest.raises(RegistryError, match="pipeline 'fast-pipeline' is already registered"):
        reg.register_pipeline("fast-pipeline", lambda: FastPipeline)


# ---------------------------------------------------------------- emitters


def test_register_emitter_callable_and_path() -> None:
    reg = Registry()
    factory = Counter(upper_emitter)
    reg.register_emitter("upper", factory, summary="Upper-case op name")
    reg.register_emitter("upper2", f"{__name__}:upper_emitter")
    assert factory.calls == 0
    assert reg.emitters["upper"].load() is upper_emitter
    assert reg.emitters["upper"].summary == "Upper-case op name"
    assert reg.emitters["upper2"].load() is upper_emitter


def test_emitter_clashes() -> None:
    reg = Registry()
    with pytest.raises(RegistryError, match="emitter 'mlir' is already registered"):
        reg.register_emitter("mlir", lambda: upper_emitter)
    reg.register_emitter("upper", lambda: upper_emitter)
    with pytest.raises(RegistryError, match="emitter 'upper' is already registered"):
        reg.register_emitter("upper", lambda: upper_emitter)


def test_registered_emitter_is_used_by_the_driver(tmp_path: Any) -> None:
    from mlkit.driver.opt import OptOptions, run_opt

    src = tmp_path / "in.mlir"
    src.write_text("func.func @f() {\n  return\n}\n")
    reg = _with_builtin_dialects()
    reg.register_emitter("upper", lambda: upper_emitter)
    out, err = io.StringIO(), io.StringIO()
    rc = run_opt(OptOptions(input=str(src), emit="upper"), reg, out, err)
    assert (rc, err.getvalue()) == (0, "")
    assert out.getvalue() == "EMITTED BUILTIN.MODULE\n"


# ---------------------------------------------------------------- contexts


def test_make_context_parses_registered_dialect() -> None:
    reg = Registry()
    reg.register_dialect(Widget)
    ctx = make_context(reg)
    module = parse_module(ctx, "widget.op\n", "w.mlir")
    verify_op_tree(module)
    (op,) = module.ops
    assert isinstance(op, WidgetOp)


def test_make_context_rejects_unregistered_dialect_op() -> None:
    ctx = make_context(Registry())
    with pytest.raises(DiagnosticError, match="Dialect `widget' not found for custom op 'widget.op'"):
        parse_module(ctx, "widget.op\n", "w.mlir")


CORE_PROGRAM = """\
func.func @f(%a: f32, %c: i1, %m: memref<4xf32>, %i: index) -> f32 {
  %0 = arith.addf %a, %a : f32
  %1 = math.sqrt %0 : f32
  %2 = memref.load %m[%i] : memref<4xf32>
  %3 = vector.broadcast %a : f32 to vector<4xf32>
  %4 = bufferization.to_tensor %m : memref<4xf32> to tensor<4xf32>
  %5 = ub.poison : f32
  %6 = builtin.unrealized_conversion_cast %a : f32 to i32
  %7 = scf.if %c -> (f32) {
    scf.yield %1 : f32
  } else {
    scf.yield %2 : f32
  }
  cf.br ^bb1(%7 : f32)
^bb1(%8: f32):
  func.return %8 : f32
}
"""


def test_make_context_parses_core_dialects() -> None:
    ctx = make_context(_with_builtin_dialects())
    module = parse_module(ctx, CORE_PROGRAM, "core.mlir")
    verify_op_tree(module)
    names = {op.name for op in module.walk()}
    assert {
        "builtin.module",
        "builtin.unrealized_conversion_cast",
        "func.func",
        "func.return",
        "arith.addf",
        "math.sqrt",
        "memref.load",
        "vector.broadcast",
        "bufferization.to_tensor",
        "ub.poison",
        "scf.if",
        "scf.yield",
        "cf.br",
    } <= names
    # every op came from its real definition, not an unregistered placeholder
    assert not any(isinstance(op, UnregisteredOp) for op in module.walk())


def test_make_context_parses_index_dialect() -> None:
    from mlkit.plugins import default_registry

    ctx = make_context(default_registry())
    text = "func.func @f(%i: index) -> index {\n  %0 = index.add %i, %i\n  return %0 : index\n}\n"
    module = parse_module(ctx, text, "index.mlir")
    verify_op_tree(module)
    assert "index.add" in {op.name for op in module.walk()}


@pytest.mark.parametrize("name", sorted(DIALECTS))
def test_builtin_plugin_dialect_paths_load_under_their_names(name: str) -> None:
    dialect = _with_builtin_dialects().load_dialect(name)
    assert isinstance(dialect, Dialect)
    assert dialect.name == name


def test_builtin_dialect_loads_without_plugins() -> None:
    assert Registry().load_dialect("builtin").name == "builtin"


def test_make_context_allow_unregistered() -> None:
    ctx = make_context(Registry(), allow_unregistered=True)
    module = parse_module(ctx, '"foo.bar"() : () -> ()\n', "u.mlir")
    (op,) = module.ops
    assert isinstance(op, UnregisteredOp)
    assert op.op_name.data == "foo.bar"
    with pytest.raises(DiagnosticError, match="operation being parsed with an unregistered dialect"):
        parse_module(make_context(Registry()), '"foo.bar"() : () -> ()\n', "u.mlir")


# ---------------------------------------------------------------- laziness


def test_dialect_factory_not_called_until_used() -> None:
    reg = _with_builtin_dialects()
    widget = Counter(Widget)
    gadget = Counter(Gadget)
    reg.register_dialect("widget", widget)
    reg.register_dialect("gadget", gadget)
    ctx = make_context(reg)
    assert (widget.calls, gadget.calls) == (0, 0)
    parse_module(ctx, "func.func @f() {\n  return\n}\n", "a.mlir")
    assert (widget.calls, gadget.calls) == (0, 0)
    parse_module(ctx, "widget.op\nwidget.op\n", "b.mlir")
    assert (widget.calls, gadget.calls) == (1, 0)


def test_pass_factory_not_called_until_used() -> None:
    from mlkit.pipeline.manager import PipelineBuilder

    reg = Registry()
    factory = Counter(Documented)
    reg.register_pass("documented", factory)
    reg.register_pass("undocumented", lambda: Undocumented)
    builder = PipelineBuilder(reg)
    builder.parse("builtin.module(undocumented)")
    assert factory.calls == 0
    pm = builder.parse("builtin.module(documented{level=3})")
    assert factory.calls == 1
    (node,) = pm.children
    assert node.instance == Documented(level=3)


def test_default_registry_imports_nothing_until_used() -> None:
    """Starting up (registry + context) must not import dialects or passes."""
    script = textwrap.dedent(
        """
        import sys, mlkit
        reg = mlkit.default_registry()
        ctx = mlkit.make_context(reg)
        assert "cse" in reg.passes and "linalg" in reg.dialects
        heavy = ["xdsl.dialects.linalg", "xdsl.dialects.tensor", "xdsl.dialects.llvm",
                 "xdsl.dialects.gpu", "xdsl.dialects.arith", "mlkit.passes.transforms.cse",
                 "mlkit.passes.conversion.scf_to_cf"]
        print(",".join(m for m in heavy if m in sys.modules))
        mlkit.parse_module(ctx, "%0 = arith.constant 1 : i32", "x.mlir")
        print("arith" if "xdsl.dialects.arith" in sys.modules else "no-arith")
        print("linalg" if "xdsl.dialects.linalg" in sys.modules else "no-linalg")
        """
    )
    result = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["", "arith", "no-linalg"]


def test_register_translation_lazily_and_once() -> None:
    reg = Registry()
    factory = Counter(Widget)
    reg.register_translation("widget", factory)
    assert factory.calls == 0
    assert reg.translations["widget"].load() is Widget
    with pytest.raises(RegistryError, match="translation of dialect 'widget' is already registered"):
        reg.register_translation("widget", f"{__name__}:Widget")
    with pytest.raises(RegistryError, match="dialect 'llvm' is already registered"):
        reg.register_translation("llvm", f"{__name__}:Widget")
