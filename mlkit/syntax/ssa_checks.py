"""Upstream's errors for misused SSA names, with their notes.

xDSL's parser says ``SSA value %0 is already defined`` and ``operand is used
with type ...``, lets a region argument take the name of a value used before
it (resolving that forward reference to the argument), and reads ``%i#0``
in an argument list as ``%i`` followed by an attribute. Upstream reports:

* ``redefinition of SSA value '%0'``, noting where it was ``previously defined``;
* ``region entry argument '%i' is already in use``, noting where it was
  ``previously referenced``;
* ``use of value '%x' expects different type than prior uses: 'T' vs 'U'``,
  noting the ``prior use``;
* ``result number not allowed in argument list``.

:class:`SSANameChecks` adds these to a parser; it keeps where each name was
first seen and last defined.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.ir import SSAValue
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.utils.exceptions import MultipleSpansParseError, ParseError
from xdsl.utils.lexer import Span
from xdsl.utils.mlir_lexer import MLIRTokenKind


class SSANameChecks(Parser):
    """Mixin, listed before xDSL's ``Parser``: upstream's SSA-name errors."""

    @property
    def _first_seen(self) -> dict[str, Span]:
        """Where each SSA name was first defined or used, for the notes."""
        return self.__dict__.setdefault("_ssa_first_seen", {})

    @property
    def _defined_at(self) -> dict[str, Span]:
        """Where each SSA name was last defined, for redefinition notes."""
        return self.__dict__.setdefault("_ssa_defined_at", {})

    def parse_optional_argument(self, expect_type: bool = True) -> Any:
        token = self._current_token
        if token.kind is MLIRTokenKind.PERCENT_IDENT and self.lexer.input.content.startswith(
            "#", token.span.end
        ):
            self.raise_error("result number not allowed in argument list", token.span.end)
        return super().parse_optional_argument(expect_type)

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        if name in self.ssa_values and (prior := self._defined_at.get(name)) is not None:
            raise MultipleSpansParseError(
                span, f"redefinition of SSA value '%{name}'", None,
                [(prior, "previously defined here")],
            )  # fmt: skip
        self._defined_at[name] = span
        self._first_seen.setdefault(name, span)
        super()._register_ssa_definition(name, values, span)

    def resolve_operand(self, operand: UnresolvedOperand, type: Any) -> Any:
        """xDSL's, with upstream's message (and note) for a value used with
        another type than where it was defined or first used."""
        name = operand.operand_name
        try:
            resolved = super().resolve_operand(operand, type)
        except ParseError as err:
            if not err.msg.startswith("operand is used with type"):
                raise
            values = self.ssa_values.get(name)
            known = (
                values[operand.index].type
                if values is not None
                else self.forward_ssa_references[name][operand.index].type
            )
            refs: list[tuple[Span, str | None]] = []
            if (prior := self._first_seen.get(name)) is not None:
                refs.append((prior, "prior use here"))
            raise MultipleSpansParseError(
                operand.span,
                f"use of value '{operand.span.text}' expects different type than prior uses: "
                f"'{type}' vs '{known}'",
                None,
                refs,
            ) from None
        if name not in self._first_seen and name not in self.ssa_values:
            self._first_seen[name] = operand.span  # a forward reference's first use
        return resolved

    def parse_optional_region(self, arguments: Sequence[Parser.Argument] | None = None) -> Any:
        if self._current_token.kind is MLIRTokenKind.L_BRACE:
            for arg in arguments or ():
                name = arg.name.text[1:]
                defined = name in self.ssa_values
                prior = self._defined_at.get(name) if defined else self._first_seen.get(name)
                if (defined or name in self.forward_ssa_references) and prior is not None:
                    raise MultipleSpansParseError(
                        arg.name, f"region entry argument '{arg.name.text}' is already in use",
                        None, [(prior, "previously referenced here")],
                    )  # fmt: skip
        return super().parse_optional_region(arguments)
