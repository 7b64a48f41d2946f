"""``mlkit-translate``: mlir-translate's command line for leaving MLIR.

``--mlir-to-llvmir`` reads llvm dialect MLIR and prints LLVM IR, through the
same driver as ``mlkit-opt --emit=llvm`` (reading, splitting, located
errors, all-or-nothing output files).
"""

from __future__ import annotations

from typing import TextIO

from mlkit.driver.opt import OptOptions, run_opt
from mlkit.plugins import PluginError, default_registry, load_plugin
from mlkit.tools.cli import UsageError, scan, tool_main, unknown_argument

TOOL = "mlkit-translate"

# translation flag -> (emitter, help)
TRANSLATIONS: dict[str, tuple[str, str]] = {
    "mlir-to-llvmir": ("llvm", "Translate MLIR in the llvm dialect to LLVM IR"),
}
# option name -> (takes a value, help)
OPTIONS: dict[str, tuple[bool, str]] = {
    "o": (True, "Output filename (default: standard output)"),
    "split-input-file": (False, "Split the input on '// -----' and translate each chunk"),
    "verify-diagnostics": (False, "Check expected-* comments against emitted diagnostics"),
    "allow-unregistered-dialect": (False, "Accept ops of unregistered dialects"),
    "no-implicit-module": (False, "Do not wrap the input in a builtin.module"),
    "load-plugin": (True, "Load a plugin (a .py file or a module name); repeatable"),
    "mlkit-traceback": (False, "Show Python tracebacks of internal errors"),
    "help": (False, "Show this help and exit"),
    "h": (False, "Alias for --help"),
}


def parse_args(argv: list[str]) -> tuple[OptOptions, bool]:
    """Options for the driver, and whether help was asked for."""
    opts = OptOptions()
    translation: str | None = None
    inputs: list[str] = []
    args = scan(argv)
    index = 0
    while index < len(args):
        arg = args[index]
        index += 1
        name = arg.name
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
        takes_value, _ = OPTIONS[name]
        value = arg.value
        if takes_value and value is None:
            if index >= len(args) or args[index].name is not None:
                raise UsageError(f"{TOOL}: error: option '{arg.raw}' requires a value")
            value = args[index].raw
            index += 1
        match name:
            case "help" | "h":
                return opts, True
            case "o":
                opts.output = value or "-"
            case "split-input-file":
                opts.split_marker = "// -----"
            case "verify-diagnostics":
                opts.verify_diagnostics = True
            case "allow-unregistered-dialect":
                opts.allow_unregistered = True
            case "no-implicit-module":
                opts.implicit_module = False
            case "load-plugin":
                load_plugin(value or "", default_registry())
            case "mlkit-traceback":
                opts.show_traceback = True
    if translation is None:
        raise UsageError(
            f"{TOOL}: error: no translation chosen (expected one of: "
            + ", ".join(f"--{t}" for t in TRANSLATIONS)
            + ")"
        )
    if len(inputs) > 1:
        raise UsageError(f"{TOOL}: Too many positional arguments specified: {' '.join(inputs)}")
    opts.input = inputs[0] if inputs else "-"
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
    lines.append("")
    for name, (takes_value, text) in OPTIONS.items():
        dash = "-" if len(name) == 1 else "--"
        spelled = f"{dash}{name}" + ("=<value>" if takes_value else "")
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
    return run_opt(opts, registry, stdout, stderr)


def main() -> None:
    tool_main(run)


if __name__ == "__main__":
    main()
