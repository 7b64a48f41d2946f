"""``mlkit-run``: the JIT runner front end (mlir-runner's flags)."""

from __future__ import annotations

import sys


def main() -> None:
    sys.stderr.write(
        "mlkit-run: the JIT runner is not available in this version of mlkit yet; "
        "lower with mlkit-opt for now\n"
    )
    sys.exit(1)
