"""``mlkit-run``: mlir-runner's command line over mlkit's JIT
(:mod:`mlkit.driver.run`): ``-e``, ``-entry-point-result``, ``-O0``..``-O3``,
``-shared-libs``, ``--march``, ``--mcpu``, with one or two dashes."""

from __future__ import annotations

from dataclasses import replace

from mlkit.driver.run import ENTRY_RESULTS, RunOptions, run_runner
from mlkit.plugins import default_registry, load_plugin
from mlkit.tools.cli import Options, UsageError, only_input, option_help
from mlkit.tools.cli import DRIVER_SWITCHES, apply_switch, options_and_inputs
from mlkit.tools.cli import COMMON_OPTIONS, Tool, alias, help_header, unknown_argument

TOOL = "mlkit-run"

OPTIONS: Options = {
    "march": ("yes", "Architecture to generate code for (must be the host's)"),
    "mcpu": ("yes", "Target CPU ('native' or unset: the host's)"),
    "e": ("yes", "The function to be called (default: main)"),
    "entry-point": alias("e"),
    "entry-point-result": ("yes", "Result type of the entry point: void, i32, i64, f32 (default) or f64"),
    "shared-libs": ("yes", "Libraries to link dynamically (comma separated; repeatable)"),
    "num-threads": ("yes", "Threads for parallel loops (default: $MLKIT_NUM_THREADS, else all cores)"),
    "runtime-checks": ("no", "A failed runtime check (cf.assert) exits 1 instead of aborting"),
} | {f"O{n}": ("no", f"Run opt passes and codegen at O{n}") for n in range(4)} | COMMON_OPTIONS


def parse_args(argv: list[str]) -> tuple[RunOptions, bool]:
    """Options for the runner, and whether help was asked for."""
    opts = RunOptions()
    jit = opts.jit
    libs: list[str] = []
    args, inputs = options_and_inputs(TOOL, argv, OPTIONS)
    for arg in args:
        name, value = arg.name or "", arg.value
        if name not in OPTIONS:
            raise unknown_argument(TOOL, arg.raw, OPTIONS)
        if OPTIONS[name][0] == "no" and value is not None:
            raise UsageError(f"{TOOL}: error: option '{arg.raw}' does not take a value")
        if apply_switch(opts, DRIVER_SWITCHES, name):
            continue
        match name:
            case "help" | "h":
                return opts, True
            case "e" | "entry-point":
                opts.entry = value or ""
            case "entry-point-result":
                if value not in ENTRY_RESULTS:
                    raise UsageError(
                        f"{TOOL}: error: invalid -entry-point-result '{value}' "
                        f"(expected one of: {', '.join(ENTRY_RESULTS)})"
                    )
                opts.result = value
            case "O0" | "O1" | "O2" | "O3":
                jit = replace(jit, opt_level=int(name[1]))
            case "shared-libs":
                libs += [lib for lib in (value or "").split(",") if lib]
            case "runtime-checks":
                jit = replace(jit, runtime_checks=True)
            case "num-threads":
                if not (value or "").isdigit() or int(value or "0") < 1:
                    raise UsageError(
                        f"{TOOL}: error: invalid -num-threads '{value}' (expected a positive integer)"
                    )
                opts.num_threads = int(value or "1")
            case "march":
                jit = replace(jit, march=value)
            case "mcpu":
                jit = replace(jit, cpu=value)
            case "load-plugin":
                load_plugin(value or "", default_registry())
    opts.input = only_input(TOOL, inputs)
    opts.jit = replace(jit, shared_libs=tuple(libs))
    return opts, False


def help_text() -> str:
    header = help_header("mlkit CPU execution driver (mlir-runner's command line)", TOOL)
    return "\n".join([*header, *option_help(OPTIONS, single_dash=True)]) + "\n"


run, main = Tool(TOOL, parse_args, help_text, run_runner).entry_points()


if __name__ == "__main__":
    main()
