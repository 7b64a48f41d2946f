"""``mlkit-opt``: mlir-opt's command line over mlkit's driver."""

from __future__ import annotations

from dataclasses import replace
from typing import TextIO

from mlkit.target.machine import TargetOptions, check_triple, parse_opt_level
from mlkit.driver.opt import OptOptions, run_opt
from mlkit.pipeline.manager import ANY, OpPassManager, PipelineBuilder, PipelineError
from mlkit.plugins import PluginError, default_registry, load_plugin
from mlkit.registry import Registry
from mlkit.tools.cli import Arg, Options, UsageError, only_input, option_help, report_usage, scan
from mlkit.tools.cli import DRIVER_SWITCHES, Switches, apply_switch, take_values, tool_main
from mlkit.tools.cli import COMMON_OPTIONS, alias, help_header, IR_INPUT_OPTIONS, unknown_argument

TOOL = "mlkit-opt"
PLUGIN_FLAGS = ("load-plugin", "load-dialect-plugin", "load-pass-plugin")

OPTIONS: Options = {
    "o": ("yes", "Output filename (default: standard output)"),
    "pass-pipeline": ("yes", "A textual pass pipeline, e.g. builtin.module(func.func(cse))"),
    "p": alias("pass-pipeline"),
    "split-input-file": ("optional", "Split the input on '// -----' and process each chunk"),
    "output-split-marker": ("yes", "Marker printed between output chunks"),
    "verify-diagnostics": ("optional", "Check expected-* comments against emitted diagnostics"),
    "verify-each": ("optional", "Verify the IR after each pass (default true)"),
    "mlir-print-ir-after-all": ("no", "Print the IR after every pass"),
    "mlir-print-ir-before-all": ("no", "Print the IR before every pass"),
    "mlir-print-ir-after": ("yes", "Print the IR after the named passes (comma list)"),
    "mlir-print-ir-before": ("yes", "Print the IR before the named passes (comma list)"),
    "mlir-print-ir-after-change": ("no", "Print the IR after a pass only if it changed"),
    "mlir-print-ir-module-scope": ("no", "Print the whole module in IR dumps"),
    "mlir-timing": ("no", "Report wall time per pass on stderr"),
    "mlir-pass-statistics": ("no", "Report the statistics of each pass on stderr"),
    "mlir-pass-statistics-display": (
        "yes", "Display method for pass statistics: list or pipeline (default)"
    ),
    "mlir-timing-display": ("yes", "Display method for timing data: list or tree (default)"),
    "pass-report": ("yes", "Write an HTML page of the passes run: times, IR and diffs"),
    "mlir-print-op-generic": ("no", "Print ops in the generic form"),
    "mlir-print-debuginfo": ("no", "Print source locations"),
    "mlir-print-local-scope": ("no", "Print attributes in place, with no #map/#set aliases"),
    "mlir-disable-threading": ("no", "Run on one thread (mlkit's pass manager always does)"),
    "verify-roundtrip": ("no", "Check that the input prints and parses back to the same IR"),
    "mlir-elide-elementsattrs-if-larger": (
        "yes", "Print dense attributes with more elements as dense_resource<__elided__>"
    ),
    "debug-only": ("yes", "Accepted as LLVM's tools take it; mlkit has no debug output"),
    "debug": ("no", "Accepted as LLVM's tools take it; mlkit has no debug output"),
    **IR_INPUT_OPTIONS,
    "emit": ("yes", "Output kind: mlir, or a registered emitter (llvm, asm, obj, ptx)"),
    "mtriple": ("yes", "Target triple for --emit=llvm|asm|obj (default: the module's, else the host)"),
    "mcpu": ("yes", "Target CPU for --emit=asm|obj ('native' for the host's; default: generic)"),
    "opt-level": ("yes", "LLVM optimization level O0..O3 for --emit=llvm|asm|obj (default: O0)"),
    "dump-pass-pipeline": ("no", "Print the pipeline that will run to stderr"),
    "show-dialects": ("no", "List the registered dialects and exit"),
    "list-passes": ("no", "List passes and pipelines with their options and exit"),
    "load-dialect-plugin": alias("load-plugin"),
    "load-pass-plugin": alias("load-plugin"),
    "version": ("no", "Print the version and exit"),
    **COMMON_OPTIONS,
}


SWITCHES: Switches = {
    **DRIVER_SWITCHES,
    "mlir-print-ir-after-all": ("instrumentation.print_after_all", True),
    "mlir-print-ir-before-all": ("instrumentation.print_before_all", True),
    "mlir-print-ir-after-change": ("instrumentation.print_after_change", True),
    "mlir-print-ir-module-scope": ("instrumentation.print_module_scope", True),
    "mlir-timing": ("timing", True),
    "mlir-print-op-generic": ("generic", True),
    "mlir-print-debuginfo": ("debuginfo", True),
    "mlir-print-local-scope": ("local_scope", True),
    "dump-pass-pipeline": ("dump_pipeline", True),
    "verify-roundtrip": ("verify_roundtrip", True),
}


def _bool(arg: Arg) -> bool:
    if arg.value is None or arg.value.lower() in ("true", "1"):
        return True
    if arg.value.lower() in ("false", "0"):
        return False
    raise UsageError(f"{TOOL}: '{arg.value}' is not a valid boolean for '--{arg.name}'")


def _choice(arg: Arg, values: tuple[str, ...]) -> str:
    """An enum option's value, refused as LLVM's parser refuses it."""
    if arg.value not in values:
        raise UsageError(
            f"{TOOL}: for the --{arg.name} option: Cannot find option named '{arg.value or ''}'!"
        )
    return arg.value


def _unsigned(arg: Arg) -> int:
    """An ``unsigned`` option's value, refused as LLVM's parser refuses it."""
    text = arg.value or ""
    if not text.isdigit():
        raise UsageError(
            f"{TOOL}: for the --{arg.name} option: '{text}' value invalid for uint argument!"
        )
    return int(text)


def _target_option(target: TargetOptions, name: str, value: str) -> TargetOptions:
    """``target`` with one of --mtriple, --mcpu, --opt-level set."""
    if name == "opt-level":
        try:
            return replace(target, opt_level=parse_opt_level(value))
        except ValueError as exc:
            raise UsageError(f"{TOOL}: error: --opt-level: {exc}") from None
    if name == "mtriple" and (problem := check_triple(value)) is not None:
        raise UsageError(f"{TOOL}: error: --mtriple: {problem}")
    return replace(target, **{"triple" if name == "mtriple" else "cpu": value})


def load_plugins(args: list[Arg], registry: Registry) -> None:
    for arg in args:
        if arg.name in PLUGIN_FLAGS and arg.value is not None:
            load_plugin(arg.value, registry)


def parse_args(argv: list[str], registry: Registry) -> tuple[OptOptions, str | None]:
    """Turn argv into options; the second result is an informational action
    (help, version, show-dialects, list-passes) to perform instead of a run."""
    args = take_values(TOOL, scan(argv), OPTIONS)
    load_plugins(args, registry)
    opts = OptOptions()
    builder = PipelineBuilder(registry)
    flag_pm = OpPassManager("builtin.module")
    pipeline_text: str | None = None
    used_flags = False
    inputs: list[str] = []
    after: list[str] = []
    before: list[str] = []
    inst = opts.instrumentation
    statistics, statistics_display = False, "pipeline"
    for arg in args:
        name = arg.name
        if name is None:
            inputs.append(arg.raw)
            continue
        if name in ("help", "h"):
            return opts, "help"
        if name in ("version", "show-dialects", "list-passes"):
            return opts, name
        if name in registry.passes or name in registry.pipelines:
            used_flags = True
            builder.add_flag(flag_pm, name, arg.value)
            continue
        if name not in OPTIONS:
            raise unknown_argument(TOOL, arg.raw, [*OPTIONS, *registry.passes, *registry.pipelines])
        if OPTIONS[name][0] == "no" and arg.value is not None and not _bool(arg):
            continue
        if apply_switch(opts, SWITCHES, name):
            continue
        match name:
            case "o":
                opts.output = arg.value or "-"
            case "pass-pipeline" | "p":
                pipeline_text = arg.value
            case "split-input-file":
                opts.split_marker = arg.value or "// -----"
            case "output-split-marker":
                opts.output_split_marker = arg.value or ""
            case "verify-diagnostics":
                opts.verify_diagnostics = arg.value is None or arg.value != "false"
            case "verify-each":
                opts.verify_each = _bool(arg)
            case "mlir-print-ir-after":
                after += (arg.value or "").split(",")
            case "mlir-print-ir-before":
                before += (arg.value or "").split(",")
            case "emit":
                opts.emit = arg.value or ""
                if opts.emit != "mlir" and opts.emit not in registry.emitters:
                    known = ", ".join(["mlir", *sorted(registry.emitters)])
                    raise UsageError(
                        f"{TOOL}: error: unknown --emit value '{opts.emit}' (expected one of: {known})"
                    )
            case "mlir-pass-statistics":
                statistics = True
            case "mlir-pass-statistics-display":
                statistics_display = _choice(arg, ("list", "pipeline"))
            case "mlir-timing-display":
                opts.timing_display = _choice(arg, ("list", "tree"))
            case "pass-report":
                opts.pass_report = arg.value or ""
                if not opts.pass_report:
                    raise UsageError(f"{TOOL}: error: --pass-report needs a file name")
            case "mlir-elide-elementsattrs-if-larger":
                opts.elide_elements_larger = _unsigned(arg)
            case "mtriple" | "mcpu" | "opt-level":
                opts.target = _target_option(opts.target, name, arg.value or "")
            case _:
                # plugin flags were handled before the scan; --mlir-disable-threading,
                # --debug and --debug-only change nothing mlkit prints or does, and
                # are accepted for RUN lines' sake
                pass
    for passes, label in ((after, "mlir-print-ir-after"), (before, "mlir-print-ir-before")):
        for p in passes:
            if p not in registry.passes:
                raise UsageError(f"{TOOL}: error: --{label}: '{p}' is not a registered pass")
    if statistics:
        opts.pass_statistics = statistics_display
    inst.print_after = frozenset(after)
    inst.print_before = frozenset(before)
    opts.input = only_input(TOOL, inputs)
    if pipeline_text is not None:
        if used_flags:
            raise UsageError(
                f"{TOOL}: error: '--pass-pipeline' option can't be used with individual pass options"
            )
        top = "builtin.module" if opts.implicit_module else ANY
        opts.pipeline = builder.parse(pipeline_text, top_anchor=top)
    elif used_flags:
        if not opts.implicit_module:
            flag_pm.anchor = ANY
        opts.pipeline = flag_pm
    return opts, None


def help_text(registry: Registry) -> str:
    lines = [
        *help_header("mlkit modular optimizer driver", TOOL),
        *option_help(OPTIONS),
    ]
    lines.append("\n  Compiler passes to run")
    lines.append("    Passes:")
    for name, entry in sorted(registry.passes.items()):
        lines.append(f"      --{name:<40} - {entry.summary}")
    if registry.pipelines:
        lines.append("    Pass Pipelines:")
        for name, pipe in sorted(registry.pipelines.items()):
            lines.append(f"      --{name:<40} - {pipe.summary}")
    return "\n".join(lines) + "\n"


def list_passes(registry: Registry) -> str:
    from mlkit.pipeline.options import option_infos

    lines: list[str] = []
    for title, table in (("Passes", registry.passes), ("Pass Pipelines", registry.pipelines)):
        if not table:
            continue
        lines.append(f"{title}:")
        for name, entry in sorted(table.items()):
            lines.append(f"  {name}")
            lines.append(f"    {entry.summary}")
            for info in option_infos(entry.load()):
                default = f" (default: {info.default})" if info.default is not None else ""
                help_ = f" - {info.help}" if info.help else ""
                lines.append(f"    --{info.name}=<{info.type_name}>{default}{help_}")
    return "\n".join(lines) + "\n"


def version_text() -> str:
    from importlib.metadata import PackageNotFoundError, version

    def v(pkg: str) -> str:
        try:
            return version(pkg)
        except PackageNotFoundError:
            return "unknown"

    return f"mlkit version {v('mlkit-compiler')}\n  xDSL {v('xdsl')}, llvmlite {v('llvmlite')}\n"


def run(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    try:
        registry = default_registry()
        opts, action = parse_args(argv, registry)
    except (UsageError, PluginError) as exc:
        return report_usage(TOOL, exc, stderr)
    except PipelineError as exc:
        stderr.write(exc.render())
        return 1
    if action == "help":
        stdout.write(help_text(registry))
    elif action == "version":
        stdout.write(version_text())
    elif action == "show-dialects":
        stdout.write("Available Dialects: " + ", ".join(registry.dialect_names()) + "\n")
    elif action == "list-passes":
        stdout.write(list_passes(registry))
    else:
        return run_opt(opts, registry, stdout, stderr)
    return 0


def main() -> None:
    tool_main(run)


if __name__ == "__main__":
    main()
