"""``mlkit-run``: mlir-runner's command line over mlkit's JIT
(:mod:`mlkit.driver.run`): ``-e``, ``-entry-point-result``, ``-O0``..``-O3``,
``-shared-libs``, ``--march``, ``--mcpu``, with one or two dashes."""

from __future__ import annotations

import sys
from dataclasses import replace
from typing import TextIO

from mlkit.driver.run import ENTRY_RESULTS, RunOptions, run_runner
from mlkit.plugins import PluginError, default_registry, load_plugin
from mlkit.tools.cli import UsageError, scan, unknown_argument

TOOL = "mlkit-run"

# option name -> (takes a value, help)
OPTIONS: dict[str, tuple[bool, str]] = {
    "e": (True, "The function to be called (default: main)"),
    "entry-point": (True, "Alias for -e"),
    "entry-point-result": (True, "Result type of the entry point: void, i32, i64, f32 (default) or f64"),
    "O0": (False, "Run opt passes and codegen at O0"),
    "O1": (False, "Run opt passes and codegen at O1"),
    "O2": (False, "Run opt passes and codegen at O2"),
    "O3": (False, "Run opt passes and codegen at O3"),
    "shared-libs": (True, "Libraries to link dynamically (comma separated; repeatable)"),
    "march": (True, "Architecture to generate code for (must be the host's)"),
    "mcpu": (True, "Target CPU ('native' or unset: the host's)"),
    "load-plugin": (True, "Load a plugin (a .py file or a module name); repeatable"),
    "mlkit-traceback": (False, "Show Python tracebacks of internal errors"),
    "help": (False, "Show this help and exit"),
    "h": (False, "Alias for --help"),
}


def parse_args(argv: list[str]) -> tuple[RunOptions, bool]:
    """Options for the runner, and whether help was asked for."""
    opts = RunOptions()
    jit = opts.jit
    inputs: list[str] = []
    libs: list[str] = []
    args = scan(argv)
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        name = arg.name
        if name is None:
            inputs.append(arg.raw)
            continue
        if name not in OPTIONS:
            raise unknown_argument(TOOL, arg.raw, OPTIONS)
        takes_value, _ = OPTIONS[name]
        value = arg.value
        if takes_value and value is None:
            if index >= len(args) or args[index].name is not None:
                raise UsageError(f"{TOOL}: error: option '{arg.raw}' requires a value")
            value = args[index].raw
            index += 1
        elif not takes_value and value is not None:
            raise UsageError(f"{TOOL}: error: option '{arg.raw}' does not take a value")
        assert value is not None or not takes_value
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
            case "march":
                jit = replace(jit, march=value)
            case "mcpu":
                jit = replace(jit, cpu=value)
            case "load-plugin":
                load_plugin(value or "", default_registry())
            case "mlkit-traceback":
                opts.show_traceback = True
    if len(inputs) > 1:
        raise UsageError(f"{TOOL}: Too many positional arguments specified: {' '.join(inputs)}")
    opts.input = inputs[0] if inputs else "-"
    opts.jit = replace(jit, shared_libs=tuple(libs))
    return opts, False


def help_text() -> str:
    lines = [
        "OVERVIEW: mlkit CPU execution driver (mlir-runner's command line)\n",
        f"USAGE: {TOOL} [options] <input file>\n",
        "OPTIONS:",
    ]
    for name, (takes_value, text) in OPTIONS.items():
        spelled = f"-{name}" + ("=<value>" if takes_value else "")
        lines.append(f"  {spelled:<34} - {text}")
    return "\n".join(lines) + "\n"


def run(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    try:
        opts, wants_help = parse_args(argv)
        registry = default_registry()
    except (UsageError, PluginError) as exc:
        message = str(exc)
        stderr.write(message if message.startswith(TOOL) else f"{TOOL}: error: {message}")
        stderr.write("\n")
        return 1
    if wants_help:
        stdout.write(help_text())
        return 0
    return run_runner(opts, registry, stdout, stderr)


def main() -> None:
    from mlkit.driver.deep_stack import run_with_deep_stack

    code = run_with_deep_stack(lambda: run(sys.argv[1:], sys.stdout, sys.stderr))
    sys.stdout.flush()
    sys.exit(code)


if __name__ == "__main__":
    main()
