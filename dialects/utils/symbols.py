"""Upstream's ``SymbolOpInterface`` verifier, which checks more than xDSL's.

xDSL's trait checks only that a symbol has a name. Upstream also requires the
op a symbol sits in to be a symbol table (a registered op without the trait
cannot hold one), so a ``func.func`` nested in another ``func.func`` is
rejected rather than left unreachable by symbol lookup.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.dialects.builtin import UnregisteredOp
from xdsl.ir import Operation
from xdsl.traits import SymbolOpInterface, SymbolTable
from xdsl.utils.exceptions import VerifyException


@dataclass(frozen=True)
class UpstreamSymbol(SymbolOpInterface):
    """``SymbolOpInterface`` with upstream's check of the symbol's parent."""

    def verify(self, op: Operation) -> None:
        if self.get_sym_attr_name(op) is None:
            return  # an optional symbol without a name is no symbol
        parent = op.parent_op()
        if parent is None or isinstance(parent, UnregisteredOp):
            return
        if not parent.has_trait(SymbolTable):
            raise VerifyException("symbol's parent must have the SymbolTable trait")
