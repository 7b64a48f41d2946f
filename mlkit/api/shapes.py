"""Sizes of a compiled function's array arguments that must agree, found in
its body before lowering and checked on every call.

The compiled loops trust the IR: a ``linalg.matmul`` on ``tensor<?x?xf32>``
arguments loops over the sizes of some operands and indexes the others with
the same induction variables, so arrays of mismatched sizes would be read and
written out of bounds. Upstream leaves this to the caller; ``mlkit.compile``
checks it instead: a structured op (one with indexing maps) whose operands are
function arguments ties together the argument dimensions its maps send to the
same loop, and an elementwise ``arith``/``math`` op on tensors ties its
operands' dimensions one to one. A call whose arrays break such a tie is a
ValueError, before any compiled code runs.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import ShapedType, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.ir.affine import AffineDimExpr

Dim = tuple[int, int]  # (argument index, dimension)


@dataclass(frozen=True)
class SizeTie:
    """Argument dimensions that must all have the same size, and the op that
    needs it (``linalg.matmul at line 4``)."""

    dims: tuple[Dim, ...]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"dims": [list(d) for d in self.dims], "reason": self.reason}

    @staticmethod
    def from_json(d: dict[str, Any]) -> SizeTie:
        return SizeTie(tuple((i, k) for i, k in d["dims"]), d["reason"])


class _Groups:
    """Union-find over argument dimensions, remembering the first op that tied
    each group."""

    def __init__(self) -> None:
        self.parent: dict[Dim, Dim] = {}
        self.reason: dict[Dim, str] = {}

    def find(self, d: Dim) -> Dim:
        self.parent.setdefault(d, d)
        while self.parent[d] != d:
            self.parent[d] = self.parent[self.parent[d]]
            d = self.parent[d]
        return d

    def tie(self, dims: list[Dim], reason: str) -> None:
        if len(dims) < 2:
            return
        roots = {self.find(d) for d in dims}
        first = self.find(dims[0])
        why = next((self.reason[r] for r in roots if r in self.reason), reason)
        for root in roots:
            self.parent[root] = first
        self.reason[first] = why

    def ties(self) -> list[SizeTie]:
        members: dict[Dim, list[Dim]] = {}
        for d in self.parent:
            members.setdefault(self.find(d), []).append(d)
        return [SizeTie(tuple(sorted(m)), self.reason[root])
                for root, m in members.items() if len(m) > 1]  # fmt: skip


def _describe(op: Operation) -> str:
    from mlkit.diagnostics.locations import op_loc

    loc = op_loc(op)
    line = getattr(loc, "line", None)
    return f"'{op.name}' at line {line}" if line else f"'{op.name}'"


def _indexing_maps(op: Operation) -> list[Any] | None:
    getter = getattr(op, "get_indexing_maps", None)
    if getter is None:
        return None
    try:
        return [m.data for m in getter()]
    except Exception:  # noqa: BLE001 - an op without usable maps ties nothing
        return None


def size_ties(func: Operation) -> tuple[SizeTie, ...]:
    """The ties between the dynamic argument sizes of ``func`` (a func.func)."""
    if not func.regions or not func.regions[0].blocks:
        return ()
    args: dict[SSAValue, int] = {a: i for i, a in enumerate(func.regions[0].blocks[0].args)}
    groups = _Groups()
    for op in func.walk():
        maps = _indexing_maps(op)
        if maps is not None and len(maps) == len(op.operands):
            loops: dict[int, list[Dim]] = {}
            for operand, amap in zip(op.operands, maps):
                if operand not in args:
                    continue
                for d, expr in enumerate(amap.results):
                    if isinstance(expr, AffineDimExpr):
                        loops.setdefault(expr.position, []).append((args[operand], d))
            for dims in loops.values():
                groups.tie(dims, _describe(op))
        elif op.dialect_name() in ("arith", "math") and any(
            isinstance(r.type, TensorType) for r in op.results
        ):
            shaped = [o for o in op.operands if o in args and isinstance(o.type, ShapedType)]
            rank = min((o.type.get_num_dims() for o in shaped), default=0)  # type: ignore[attr-defined]
            for d in range(rank):
                groups.tie([(args[o], d) for o in shaped], _describe(op))
    return tuple(groups.ties())


def check_ties(name: str, ties: tuple[SizeTie, ...], arrays: dict[int, Any], texts: list[str]) -> None:
    """ValueError naming the arguments whose sizes break one of ``ties``."""
    for tie in ties:
        present = [(i, d) for i, d in tie.dims if i in arrays]
        if len(present) < 2:
            continue
        (i0, d0), sizes = present[0], [arrays[i].shape[d] for i, d in present]
        for (i, d), size in zip(present[1:], sizes[1:]):
            if size != sizes[0]:
                raise ValueError(
                    f"@{name}: argument {i} ('{texts[i]}') has size {size} in dimension {d}, "
                    f"but argument {i0} ('{texts[i0]}') has size {sizes[0]} in dimension {d0}; "
                    f"{tie.reason} needs them equal"
                )
