"""``convert-scf-to-cf``: structured control flow to a CFG.

xDSL's lowering of ``scf.for``, ``scf.if`` and ``scf.index_switch`` is a direct
translation of upstream's SCFToControlFlow patterns and is reused here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.transforms.convert_scf_to_cf import ConvertScfToCf


@dataclass(frozen=True)
class ConvertSCFToCF(ConvertScfToCf):
    """Convert SCF dialect to ControlFlow dialect, replacing structured control flow with a CFG."""

    name = "convert-scf-to-cf"
    display_name: ClassVar[str] = "SCFToControlFlowPass"
