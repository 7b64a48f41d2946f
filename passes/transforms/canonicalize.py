"""``canonicalize``: xDSL's canonicalizer (patterns, folding, region DCE) under
upstream's name and display name."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from xdsl.transforms.canonicalize import CanonicalizePass


@dataclass(frozen=True)
class Canonicalize(CanonicalizePass):
    """Canonicalize operations."""

    name = "canonicalize"
    display_name: ClassVar[str] = "Canonicalizer"
