"""``mlkit-translate``: mlir-translate's command line for leaving MLIR.

``--mlir-to-llvmir`` reads llvm dialect MLIR and prints LLVM IR, through the
same driver as ``mlkit-opt --emit=llvm`` (reading, splitting, located
errors, all-or-nothing output files).
"""

from __future__ import annotations


from mlkit.driver.opt import OptOptions, run_opt
from mlkit.plugins import default_registry, load_plugin
from mlkit.tools.cli import Options, UsageError, only_input, option_help
from mlkit.tools.cli import DRIVER_SWITCHES, apply_switch, options_and_inputs
from mlkit.tools.cli import COMMON_OPTIONS, Tool, help_header, IR_INPUT_OPTIONS, unknown_argument

TOOL = "mlkit-translate"

# translation flag -> (emitter, help)
TRANSLATIONS: dict[str, tuple[str, str]] = {
    "mlir-to-llvmir": ("llvm", "Translate MLIR in the llvm dialect to LLVM IR"),
}
OPTIONS: Options = {
    "o": ("yes", "Output filename (default: standard output)"),
    "split-input-file": ("no", "Split the input on '// -----' and translate each chunk"),
    "verify-diagnostics": ("no", "Check expected-* comments against emitted diagnostics"),
    **IR_INPUT_OPTIONS,
    **COMMON_OPTIONS,
}


def parse_args(argv: list[str]) -> tuple[OptOptions, bool]:
    """Options for the driver, and whether help was asked for."""
    opts = OptOptions()
    translation: str | None = None
    args, inputs = options_and_inputs(TOOL, argv, OPTIONS)
    for arg in args:
        name, value = arg.name or "", arg.value
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
        *help_header("mlkit translation driver", TOOL),
        "\n  Translations to perform:",
    ]
    for name, (_, text) in TRANSLATIONS.items():
        lines.append(f"    --{name:<32} - {text}")
    lines += ["", *option_help(OPTIONS)]
    return "\n".join(lines) + "\n"


run, main = Tool(TOOL, parse_args, help_text, run_opt).entry_points()


if __name__ == "__main__":
    main()
