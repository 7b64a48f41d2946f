"""Tests for mlkit.plugins: loading plugins from files and module names, error
reporting, the built-in entry-point plugins, and plugin-provided named pipelines."""

from __future__ import annotations

import io
import sys
import textwrap
import uuid
from importlib.metadata import entry_points
from pathlib import Path

import pytest

import mlkit
from mlkit.context import make_context
from mlkit.syntax.parser import parse_module
from mlkit.pipeline.manager import PassRunner, PipelineBuilder
from mlkit.plugins import (
    ENTRY_POINT_GROUP,
    PluginError,
    default_registry,
    load_entry_point_plugins,
    load_plugin,
)
from mlkit.syntax.printer import print_op
from mlkit.registry import Registry

REPO = Path(__file__).resolve().parents[1]
TOY_PLUGIN = REPO / "lit_tests" / "Plugins" / "Inputs" / "toy_plugin.py"

TOY_PASSES = {"toy-fold", "toy-report", "toy-break", "toy-fail", "toy-crash"}

PIPELINE_PLUGIN = '''\
from dataclasses import dataclass


@dataclass
class Cleanup:
    """Clean up: cse, and canonicalize when aggressive."""

    name = "cleanup"
    aggressive: bool = False
    rounds: int = 1

    def pipeline(self) -> str:
        one = "cse,canonicalize" if self.aggressive else "cse"
        return ",".join([one] * self.rounds)


def register(registry):
    registry.register_pipeline(Cleanup)
'''

DUPLICATES = """\
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  %c0 = arith.constant 0 : i32
  %3 = arith.addi %2, %c0 : i32
  return %3 : i32
}
"""


def unique(prefix: str) -> str:
    """A module name no other test (or earlier run) has imported."""
    return f"{prefix}_{uuid.uuid4().hex[:10]}"


def write(path: Path, text: str) -> Path:
    path.write_text(textwrap.dedent(text))
    return path


def builtins_registry() -> Registry:
    reg = Registry()
    load_entry_point_plugins(reg)
    return reg


# ---------------------------------------------------------------- file paths


def test_load_toy_plugin_from_path() -> None:
    reg = Registry()
    module = load_plugin(str(TOY_PLUGIN), reg)
    assert callable(module.register)
    assert TOY_PASSES <= set(reg.passes)
    assert "toy" in reg.dialects
    label = f"plugin '{TOY_PLUGIN}'"
    assert reg.passes["toy-fold"].source == label
    assert reg.dialects["toy"].source == label
    assert reg.passes["toy-fold"].summary == "Fold toy.double of a constant."
    assert reg.current_source == "<api>"  # restored after registering
    # the dialect is usable in a context built from the registry
    ctx = make_context(reg)
    mod = parse_module(ctx, "%0 = toy.const 3\n%1 = toy.double %0\n", "t.mlir")
    assert [op.name for op in mod.ops] == ["toy.const", "toy.double"]


def test_load_plugin_from_relative_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    name = unique("relpass")
    write(
        tmp_path / "rel_plugin.py",
        f"""
        def register(registry):
            registry.register_pass("{name}", "mlkit.passes.transforms.cse:CSE")
        """,
    )
    monkeypatch.chdir(tmp_path)
    reg = Registry()
    load_plugin("rel_plugin.py", reg)
    assert name in reg.passes
    assert reg.passes[name].load().name == "cse"


def test_load_plugin_twice_is_harmless() -> None:
    reg = Registry()
    first = load_plugin(str(TOY_PLUGIN), reg)
    before = {name: entry.source for name, entry in reg.passes.items()}
    second = load_plugin(str(TOY_PLUGIN), reg)
    assert first is second
    assert {name: entry.source for name, entry in reg.passes.items()} == before


def test_same_plugin_into_two_registries() -> None:
    a, b = Registry(), Registry()
    load_plugin(str(TOY_PLUGIN), a)
    load_plugin(str(TOY_PLUGIN), b)
    assert TOY_PASSES <= set(a.passes) and TOY_PASSES <= set(b.passes)


def test_register_receives_the_registry_and_runs_once(tmp_path: Path) -> None:
    path = write(
        tmp_path / "counting.py",
        """
        CALLS = []

        def register(registry):
            CALLS.append(registry)
        """,
    )
    reg = Registry()
    module = load_plugin(str(path), reg)
    load_plugin(str(path), reg)
    assert module.CALLS == [reg]


# ---------------------------------------------------------------- module names


def test_load_plugin_by_module_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    modname = unique("mlkit_test_plugin")
    passname = unique("named-pass").replace("_", "-")
    write(
        tmp_path / f"{modname}.py",
        f'''
        from dataclasses import dataclass
        from xdsl.passes import ModulePass


        @dataclass(frozen=True)
        class NamedPass(ModulePass):
            """A pass from a module loaded by name."""

            name = "{passname}"

            def apply(self, ctx, op):
                pass


        def register(registry):
            registry.register_pass(NamedPass)
        ''',
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, modname, raising=False)
    reg = Registry()
    module = load_plugin(modname, reg)
    assert module.__name__ == modname
    assert reg.passes[passname].summary == "A pass from a module loaded by name."
    assert reg.passes[passname].source == f"plugin '{modname}'"
    # twice is harmless
    load_plugin(modname, reg)
    assert modname in reg.loaded_plugins
    sys.modules.pop(modname, None)


def test_load_plugin_uses_default_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    modname = unique("mlkit_default_plugin")
    passname = unique("default-pass").replace("_", "-")
    write(
        tmp_path / f"{modname}.py",
        f"""
        def register(registry):
            registry.register_pass("{passname}", "mlkit.passes.transforms.cse:CSE")
        """,
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    mlkit.load_plugin(modname)
    try:
        assert passname in default_registry().passes
    finally:
        default_registry().passes.pop(passname, None)
        default_registry().loaded_plugins.discard(modname)
        sys.modules.pop(modname, None)


# ---------------------------------------------------------------- errors


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "nope.py"
    with pytest.raises(PluginError) as info:
        load_plugin(str(missing), Registry())
    assert str(info.value) == f"cannot load plugin '{missing}': no such file"


def test_missing_module_name() -> None:
    name = unique("no_such_mlkit_plugin")
    with pytest.raises(PluginError, match=f"cannot load plugin '{name}'.*No module named"):
        load_plugin(name, Registry())


def test_syntax_error_reports_file_line_col(tmp_path: Path) -> None:
    path = tmp_path / "broken.py"
    path.write_text("x = 1\n\ndef register(registry)\n    pass\n")
    with pytest.raises(PluginError) as info:
        load_plugin(str(path), Registry())
    message = str(info.value)
    assert message.startswith(f"{path}:3:23: error: invalid plugin: ")
    assert "expected ':'" in message
    # a failed import leaves nothing behind: fixing the file makes it loadable
    path.write_text("def register(registry):\n    registry.register_pass('fixed-x', 'a:b')\n")
    reg = Registry()
    load_plugin(str(path), reg)
    assert "fixed-x" in reg.passes


def test_syntax_error_in_module_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    modname = unique("mlkit_broken_plugin")
    (tmp_path / f"{modname}.py").write_text("def register(registry:\n    pass\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    with pytest.raises(PluginError) as info:
        load_plugin(modname, Registry())
    assert str(info.value).startswith(f"{tmp_path / modname}.py:1:")
    assert ": error: invalid plugin: " in str(info.value)


def test_import_error_inside_plugin(tmp_path: Path) -> None:
    path = write(tmp_path / "imports.py", "import mlkit_definitely_missing_dependency\n")
    with pytest.raises(PluginError) as info:
        load_plugin(str(path), Registry())
    assert str(info.value).startswith(f"cannot load plugin '{path}': ModuleNotFoundError: ")


def test_no_register_function(tmp_path: Path) -> None:
    path = write(tmp_path / "empty.py", "REGISTER = 1\n")
    with pytest.raises(PluginError) as info:
        load_plugin(str(path), Registry())
    assert str(info.value) == f"plugin '{path}' has no register(registry) function"


def test_register_raising(tmp_path: Path) -> None:
    path = write(
        tmp_path / "raising.py",
        """
        def register(registry):
            raise ValueError("boom")
        """,
    )
    reg = Registry()
    with pytest.raises(PluginError) as info:
        load_plugin(str(path), reg)
    assert str(info.value) == f"plugin '{path}': register() failed: ValueError: boom"
    assert reg.current_source == "<api>"


def test_clash_with_builtin_pass(tmp_path: Path) -> None:
    path = write(
        tmp_path / "clash.py",
        """
        def register(registry):
            registry.register_pass("cse", "mlkit.passes.transforms.canonicalize:Canonicalize")
        """,
    )
    reg = builtins_registry()
    with pytest.raises(PluginError) as info:
        load_plugin(str(path), reg)
    assert str(info.value) == (
        f"plugin '{path}': pass 'cse' is already registered by plugin 'passes' (mlkit.passes)"
    )
    assert reg.passes["cse"].load().__name__ == "CSE"


def test_clash_with_core_dialect(tmp_path: Path) -> None:
    path = write(
        tmp_path / "arith_clash.py",
        """
        from xdsl.ir import Dialect

        def register(registry):
            registry.register_dialect(Dialect("arith", []))
        """,
    )
    with pytest.raises(PluginError, match=r"dialect 'arith' is already registered by plugin 'dialects'"):
        load_plugin(str(path), default_registry())


def test_two_plugins_clash(tmp_path: Path) -> None:
    reg = Registry()
    load_plugin(str(TOY_PLUGIN), reg)
    path = write(
        tmp_path / "toy_again.py",
        """
        from xdsl.ir import Dialect

        def register(registry):
            registry.register_dialect(Dialect("toy", []))
        """,
    )
    with pytest.raises(PluginError) as info:
        load_plugin(str(path), reg)
    assert str(info.value) == (
        f"plugin '{path}': dialect 'toy' is already registered by plugin '{TOY_PLUGIN}'"
    )


# ---------------------------------------------------------------- entry points


def test_builtin_entry_points_are_declared() -> None:
    found = {ep.name: ep.value for ep in entry_points(group=ENTRY_POINT_GROUP)}
    assert found.get("dialects") == "mlkit.dialects"
    assert found.get("passes") == "mlkit.passes"


def test_default_registry_has_builtins() -> None:
    reg = default_registry()
    assert reg is default_registry()  # one per process
    for name in ("cse", "canonicalize", "convert-scf-to-cf"):
        assert name in reg.passes
        assert reg.passes[name].source == "plugin 'passes' (mlkit.passes)"
        assert reg.passes[name].load().name == name
    assert reg.passes["cse"].summary == "Eliminate common sub-expressions"
    for name in ("tensor", "linalg", "affine", "gpu", "llvm"):
        assert name in reg.dialects
        assert reg.dialects[name].source == "plugin 'dialects' (mlkit.dialects)"


@pytest.mark.parametrize(
    "text, op_name",
    [
        ("%0 = tensor.empty() : tensor<4xf32>", "tensor.empty"),
        ("%0 = llvm.mlir.constant(1 : i32) : i32", "llvm.mlir.constant"),
        ('"gpu.barrier"() : () -> ()', "gpu.barrier"),
        ("%0 = affine.apply affine_map<() -> (3)>()", "affine.apply"),
        (
            "%0 = tensor.empty() : tensor<4xf32>\n"
            "%1 = linalg.fill ins(%c : f32) outs(%0 : tensor<4xf32>) -> tensor<4xf32>",
            "linalg.fill",
        ),
    ],
)
def test_builtin_dialects_parse(text: str, op_name: str) -> None:
    if "%c" in text:
        text = "%c = arith.constant 0.0 : f32\n" + text
    ctx = make_context(default_registry())
    module = parse_module(ctx, text + "\n", "d.mlir")
    assert op_name in {op.name for op in module.walk()}


def test_fresh_registry_loads_same_builtins() -> None:
    reg = builtins_registry()
    assert {"cse", "canonicalize", "convert-scf-to-cf"} <= set(reg.passes)
    assert {"tensor", "linalg", "affine", "gpu", "llvm"} <= set(reg.dialects)


# ---------------------------------------------------------------- named pipelines


def test_plugin_named_pipeline_with_options(tmp_path: Path) -> None:
    path = write(tmp_path / "pipes.py", PIPELINE_PLUGIN)
    reg = builtins_registry()
    load_plugin(str(path), reg)
    assert reg.pipelines["cleanup"].summary == "Clean up: cse, and canonicalize when aggressive."
    builder = PipelineBuilder(reg)

    assert builder.parse("builtin.module(cleanup)").textual() == "builtin.module(cse)"
    pm = builder.parse("builtin.module(cleanup{aggressive=true rounds=2})")
    assert pm.textual() == "builtin.module(cse,canonicalize,cse,canonicalize)"
    nested = builder.parse("builtin.module(func.func(cleanup{aggressive}))")
    assert nested.textual() == "builtin.module(func.func(cse,canonicalize))"

    ctx = make_context(reg)
    module = parse_module(ctx, DUPLICATES, "dup.mlir")
    PassRunner(ctx).run(pm, module)
    text = print_op(module)
    assert text.count("arith.addi") == 1  # cse merged the adds, canonicalize dropped + 0
    assert "arith.constant" not in text


def test_plugin_named_pipeline_bad_option(tmp_path: Path) -> None:
    from mlkit.pipeline.manager import PipelineError

    path = write(tmp_path / "pipes.py", PIPELINE_PLUGIN)
    reg = builtins_registry()
    load_plugin(str(path), reg)
    with pytest.raises(PipelineError) as info:
        PipelineBuilder(reg).parse("builtin.module(cse,cleanup{speed=3})")
    assert info.value.message == "pass 'cleanup' has no option 'speed'"
    assert info.value.offset == len("builtin.module(cse,")


def test_plugin_named_pipeline_from_command_line(tmp_path: Path) -> None:
    from mlkit.driver.opt import run_opt
    from mlkit.tools.opt import parse_args

    plugin = write(tmp_path / "pipes.py", PIPELINE_PLUGIN)
    src = tmp_path / "in.mlir"
    src.write_text(DUPLICATES)
    reg = builtins_registry()
    opts, action = parse_args(
        [
            str(src),
            f"--load-pass-plugin={plugin}",
            "--pass-pipeline=builtin.module(cleanup{aggressive=true})",
        ],
        reg,
    )
    assert action is None
    out, err = io.StringIO(), io.StringIO()
    assert run_opt(opts, reg, out, err) == 0, err.getvalue()
    assert out.getvalue().count("arith.addi") == 1
    assert "arith.constant" not in out.getvalue()

    # as a flag, too
    reg = builtins_registry()
    opts, _ = parse_args([str(src), f"--load-plugin={plugin}", "--cleanup"], reg)
    out, err = io.StringIO(), io.StringIO()
    assert run_opt(opts, reg, out, err) == 0, err.getvalue()
    assert out.getvalue().count("arith.addi") == 2  # cse only: the +0 add stays
