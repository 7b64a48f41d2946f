"""``nvvm-attach-target``: append an ``#nvvm.target`` to the ``targets`` of
each ``gpu.module`` whose name matches ``module`` (a regex; empty matches
all), as upstream's ``NVVMAttachTarget``. ``fast`` and ``ftz`` go in the
target's ``flags``, ``l`` (files to link) in ``link``. A module that already
has the same target is left as it is."""

from __future__ import annotations

import re
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mlkit.dialects.gpu.kernel import GPUModuleOp
from mlkit.dialects.nvvm import NVVMTargetAttr
from mlkit.diagnostics.emit import emit_error


@dataclass(frozen=True)
class NVVMAttachTarget(ModulePass):
    """Attaches an NVVM target attribute to a GPU Module."""

    name = "nvvm-attach-target"

    module: str = ""
    triple: str = "nvptx64-nvidia-cuda"
    chip: str = "sm_50"
    features: str = "+ptx60"
    O: int = 2
    fast: bool = False
    ftz: bool = False
    l: tuple[str, ...] = ()
    verify_target: bool = True

    def target(self) -> NVVMTargetAttr:
        flags = {k: UnitAttr() for k, on in (("fast", self.fast), ("ftz", self.ftz)) if on}
        return NVVMTargetAttr(
            O=self.O, triple=self.triple, chip=self.chip, features=self.features,
            flags=DictionaryAttr(flags) if flags else None,
            link=list(self.l) if self.l else None, verify_target=self.verify_target,
        )

    def apply(self, ctx: Context, op: ModuleOp | Operation) -> None:
        if not 0 <= self.O <= 3:
            raise emit_error(ctx, op, "The optimization level must be a number between 0 and 3.")
        try:
            pattern = re.compile(self.module) if self.module else None
        except re.error as exc:
            raise emit_error(ctx, op, f"invalid module regex '{self.module}': {exc}") from None
        target = self.target()
        for inner in op.walk():
            if not isinstance(inner, GPUModuleOp):
                continue
            if pattern is not None and not pattern.fullmatch(inner.sym_name.data):
                continue
            existing = list(inner.targets.data) if inner.targets is not None else []
            if target not in existing:
                inner.properties["targets"] = ArrayAttr([*existing, target])
