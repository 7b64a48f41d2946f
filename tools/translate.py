"""``mlkit-translate``: the translation front end (mlir-translate's flags)."""

from __future__ import annotations

import sys


def main() -> None:
    sys.stderr.write(
        "mlkit-translate: translation to LLVM IR is not available in this version "
        "of mlkit yet\n"
    )
    sys.exit(1)
