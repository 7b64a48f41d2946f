"""LLVM ``cl``-style argument scanning shared by the tools: ``-x`` and ``--x``,
``--x=v`` and ``--x v``, in command-line order."""

from __future__ import annotations

import difflib
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, NoReturn, TextIO

if TYPE_CHECKING:
    from mlkit.registry import Registry


class UsageError(Exception):
    """A command line the tool cannot accept; printed on one line, exit 1."""


@dataclass
class Arg:
    """One scanned argument: option name without dashes (or None for a
    positional), its inline ``=value`` if any, and the raw text."""

    name: str | None
    value: str | None
    raw: str


def scan(argv: list[str]) -> list[Arg]:
    args: list[Arg] = []
    only_positional = False
    for raw in argv:
        if only_positional or raw == "-" or not raw.startswith("-"):
            args.append(Arg(None, raw, raw))
        elif raw == "--":
            only_positional = True
        else:
            body = raw.lstrip("-")
            name, eq, value = body.partition("=")
            args.append(Arg(name, value if eq else None, raw))
    return args


# option name -> (takes a value: "no" | "yes" | "optional", help)
Options = dict[str, tuple[str, str]]
RunFunction = Callable[[list[str], TextIO, TextIO], int]

def alias(option: str, takes: str = "yes") -> tuple[str, str]:
    """The table entry of another spelling of ``option``."""
    dashes = "-" if len(option) == 1 else "--"
    return takes, f"Alias for {dashes}{option}"


def help_header(overview: str, tool: str) -> list[str]:
    """The first lines of a tool's ``--help``, in LLVM's layout."""
    return [f"OVERVIEW: {overview}\n", f"USAGE: {tool} [options] <input file>\n", "OPTIONS:"]


# what every tool takes, after its own options
COMMON_OPTIONS: Options = {
    "load-plugin": ("yes", "Load a plugin (a .py file or a module name); repeatable"),
    "mlkit-traceback": ("no", "Show Python tracebacks of internal errors"),
    "help": ("no", "Show this help and exit"),
    "h": alias("help", "no"),
}
# what the tools that read IR take about it
IR_INPUT_OPTIONS: Options = {
    "allow-unregistered-dialect": ("no", "Accept ops of unregistered dialects"),
    "no-implicit-module": ("no", "Do not wrap the input in a builtin.module"),
}


# an on/off option -> (the attribute of the tool's options it sets, dotted, and its value)
Switches = dict[str, tuple[str, object]]

# the switches every tool over mlkit's driver shares
DRIVER_SWITCHES: Switches = {
    "allow-unregistered-dialect": ("allow_unregistered", True),
    "no-implicit-module": ("implicit_module", False),
    "mlkit-traceback": ("show_traceback", True),
}


def apply_switch(opts: object, switches: Switches, name: str) -> bool:
    """Set what the switch ``name`` sets on ``opts``; False if it is not one."""
    if name not in switches:
        return False
    path, value = switches[name]
    *owners, attr = path.split(".")
    target = opts
    for owner in owners:
        target = getattr(target, owner)
    setattr(target, attr, value)
    return True


def take_values(tool: str, args: list[Arg], options: Options) -> list[Arg]:
    """Attach the next word to options that take a value given as ``--x v``."""
    out: list[Arg] = []
    i = 0
    while i < len(args):
        arg = args[i]
        kind = options.get(arg.name or "", ("no", ""))[0]
        if arg.name is not None and kind == "yes" and arg.value is None:
            if i + 1 >= len(args) or args[i + 1].name is not None and args[i + 1].raw != "-":
                raise UsageError(f"{tool}: error: option '{arg.raw}' requires a value")
            arg = Arg(arg.name, args[i + 1].raw, arg.raw)
            i += 1
        out.append(arg)
        i += 1
    return out


def options_and_inputs(
    tool: str, argv: list[str], options: Options
) -> tuple[list[Arg], list[str]]:
    """The scanned options with their values, and the positional words."""
    args = take_values(tool, scan(argv), options)
    return [a for a in args if a.name is not None], [a.raw for a in args if a.name is None]


def only_input(tool: str, inputs: list[str]) -> str:
    """The one positional argument (standard input when there is none)."""
    if len(inputs) > 1:
        raise UsageError(f"{tool}: Too many positional arguments specified: {' '.join(inputs)}")
    return inputs[0] if inputs else "-"


def option_help(options: Options, single_dash: bool = False) -> list[str]:
    """``--help`` lines for ``options``, aligned as LLVM's ``cl`` prints them."""
    lines = []
    for name, (kind, text) in options.items():
        dash = "-" if single_dash or len(name) == 1 else "--"
        spelled = f"{dash}{name}" + ("=<value>" if kind == "yes" else "")
        lines.append(f"  {spelled:<34} - {text}")
    return lines


def report_usage(tool: str, exc: Exception, stderr: TextIO) -> int:
    """Print a bad command line's message on one line; exit code 1."""
    message = str(exc)
    prefixed = message.startswith(tool) or ": error:" in message
    stderr.write((message if prefixed else f"{tool}: error: {message}") + "\n")
    return 1


def run_parsed(
    tool: str,
    argv: list[str],
    stdout: TextIO,
    stderr: TextIO,
    parse: Callable[[list[str]], tuple[Any, bool]],
    help_text: Callable[[], str],
    act: Callable[[Any, Registry, TextIO, TextIO], int],
) -> int:
    """A tool's run: parse the command line (``parse`` returns the options and
    whether help was asked for), then print help or act on the options."""
    from mlkit.plugins import PluginError, default_registry

    try:
        opts, wants_help = parse(argv)
        registry = default_registry()
    except (UsageError, PluginError) as exc:
        return report_usage(tool, exc, stderr)
    if wants_help:
        stdout.write(help_text())
        return 0
    return act(opts, registry, stdout, stderr)


@dataclass(frozen=True)
class Tool:
    """A tool made of its command-line parser, help text and action:
    ``run(argv, stdout, stderr)`` for tests, ``main`` for the console script."""

    name: str
    parse: Callable[[list[str]], tuple[Any, bool]]
    help_text: Callable[[], str]
    act: Callable[[Any, Registry, TextIO, TextIO], int]

    def run(self, argv: list[str], stdout: TextIO, stderr: TextIO) -> int:
        return run_parsed(self.name, argv, stdout, stderr, self.parse, self.help_text, self.act)

    def main(self) -> NoReturn:
        tool_main(self.run)

    def entry_points(self) -> tuple[RunFunction, Callable[[], NoReturn]]:
        """``run`` and ``main``, for the tool's module to export."""
        return self.run, self.main


def unknown_argument(tool: str, raw: str, known: Iterable[str]) -> UsageError:
    """LLVM's wording, with a suggestion when one is close."""
    message = f"{tool}: Unknown command line argument '{raw}'.  Try: '{tool} --help'"
    name = raw.lstrip("-").partition("=")[0]
    close = difflib.get_close_matches(name, list(known), n=1)
    if close:
        message += f"\n{tool}: Did you mean '--{close[0]}'?"
    return UsageError(message)


def tool_main(run: Callable[[list[str], TextIO, TextIO], int]) -> NoReturn:
    """Run a tool's ``run(argv, stdout, stderr)`` on a deep stack and exit with its
    code; a bug (not bad input) becomes a short internal-error line."""
    import os

    from mlkit.driver.deep_stack import run_with_deep_stack

    tool = os.path.basename(sys.argv[0])
    try:
        code = run_with_deep_stack(lambda: run(sys.argv[1:], sys.stdout, sys.stderr))
    except Exception as exc:
        sys.stderr.write(f"{tool}: internal error: {type(exc).__name__}: {exc}\n")
        if os.environ.get("MLKIT_TRACEBACK") or "--mlkit-traceback" in sys.argv:
            import traceback

            traceback.print_exception(exc, file=sys.stderr)
        else:
            sys.stderr.write("(set MLKIT_TRACEBACK=1 to see the traceback)\n")
        code = 1
    sys.stdout.flush()
    sys.exit(code)
