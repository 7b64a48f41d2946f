"""``mlkit-translate``: mlir-translate's command line for leaving MLIR.

``--mlir-to-llvmir`` reads llvm dialect MLIR and prints LLVM IR, through the
same driver as ``mlkit-opt --emit=llvm`` (reading, splitting, located
errors, all-or-nothing output files).
"""

from __future__ import annotations

from typing import TextIO

from mlkit.driver.opt import OptOptions, run_opt
from mlkit.plugins import default_registry, load_plugin
from mlkit.tools.cli import Options, UsageError, only_input, option_help, run_parsed, scan
from mlkit.tools.cli import DRIVER_SWITCHES, apply_switch, take_values, tool_main
from mlkit.tools.cli import unknown_argument

TOOL = "mlkit-translate"

# translation flag -> (emitter, help)
TRANSLATIONS: dict[str, tuple[str, str]] = {
    "mlir-to-llvmir": ("llvm", "Translate MLIR in the llvm dialect to LLVM IR"),
}
OPTIONS: Options = {
    "o": ("yes", "Output filename (default: standard output)"),
    "split-input-file": ("no", "Split the input on '// -----' and translate each chunk"),
    "verify-diagnostics": ("no", "Check expected-* comments against emitted diagnostics"),
    "allow-unregistered-dialect": ("no", "Accept ops of unregistered dialects"),
    "no-implicit-module": ("no", "Do not wrap the input in a builtin.module"),
    "load-plugin": ("yes", "Load a plugin (a .py file or a module name); repeatable"),
    "mlkit-traceback": ("no", "Show Python tracebacks of internal errors"),
    "help": ("no", "Show this help and exit"),
    "h": ("no", "Alias for --help"),
}


def parse_args(argv: list[str]) -> tuple[OptOptions, bool]:
    """Options for the driver, and whether help was asked for."""
    opts = OptOptions()
    translation: str | None = None
    inputs: list[str] = []
    for arg in take_values(TOOL, scan(argv), OPTIONS):
        name, value = arg.name, arg.value
        if name is None:
            inputs.append(arg.raw)
            continue
        if name in TRANSLATIONS:
            if translation is not None and translation != name:
                raise UsageError(f"{TOOL}: error: only one translation may be chosen")
            translation = name
            continue
        if name not in OPTIONS:
            raise unknown_argument(TOOL, arg.raw, [*OPTIONS, *TRANSLATIONS])
        if apply_switch(opts, DRIVER_SWITCHES, name):
            continue
        match name:
            case "help" | "h":
                return opts, True
            case "o":
                opts.output = value or "-"
            case "split-input-file":
                opts.split_marker = "// -----"
            case "verify-diagnostics":
                opts.verify_diagnostics = True
            case "load-plugin":
                load_plugin(value or "", default_registry())
    if translation is None:
        raise UsageError(
            f"{TOOL}: error: no translation chosen (expected one of: "
            + ", ".join(f"--{t}" for t in TRANSLATIONS)
            + ")"
        )
    opts.input = only_input(TOOL, inputs)
    opts.emit = TRANSLATIONS[translation][0]
    return opts, False


def help_text() -> str:
    lines = [
        "OVERVIEW: mlkit translation driver\n",
        f"USAGE: {TOOL} [options] <input file>\n",
        "OPTIONS:",
        "\n  Translations to perform:",
    ]
    for name, (_, text) in TRANSLATIONS.items():
        lines.append(f"    --{name:<32} - {text}")
    lines += ["", *option_help(OPTIONS)]
    return "\n".join(lines) + "\n"


def run(argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
    return run_parsed(TOOL, argv, stdout, stderr, parse_args, help_text, run_opt)


def main() -> None:
    tool_main(run)


if __name__ == "__main__":
    main()
