"""``transform-interpreter``: run the module's transform script on the module.

As upstream's pass: the entry point is the ``transform.named_sequence`` named
``entry-point`` (``__transform_main``) nested in the module; its first
argument is bound to the module, and its ops run in order, each mapping its
operand handles (lists of payload ops) to result handles. The script stays in
the module, as upstream leaves it.

mlkit interprets ``structured.match``, ``structured.tile_using_for``,
``structured.tile_using_forall``, ``structured.fuse`` (tiling with ``scf.for``
or ``scf.forall`` and greedy producer fusion, through
``passes/transforms/tiling``), ``yield``, and the handle and cleanup ops of
``transform_handles``. xDSL's interpreter tiles with its own classes of the slice ops
and has no fusion, so it is not reused. Any other transform op is a located
error rather than a silent no-op.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import transform as xtransform
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass

from mlkit.diagnostics.emit import emit_error
from mlkit.dialects.transform import FuseOp, TileUsingForallOp, TileUsingForOp, static_values
from mlkit.passes.transforms.tiling.interface import is_tileable
from mlkit.passes.transforms.transform_handles import HANDLE_INTERPRETERS, Handles, failure
from mlkit.passes.transforms.tiling.scf_tiling import (
    TilingError,
    TilingResult,
    tile_and_fuse,
    tile_using_for,
    tile_using_forall,
)
from mlkit.pipeline.options import option


def _match(op: xtransform.MatchOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    roots = handles[op.target]
    if len(roots) != 1:
        raise failure(op, "requires exactly one target handle")
    names = None if op.ops is None else {name.data for name in op.ops}
    wanted = op.op_attrs.data if op.op_attrs is not None else {}
    interface = None if op.interface is None else op.interface.value.data
    found: list[Operation] = []
    for candidate in roots[0].walk(region_first=True):
        if names is not None and candidate.name not in names:
            continue
        if interface is not None and not is_tileable(candidate):
            continue  # LinalgOp and TilingInterface: mlkit's structured ops
        attrs = {**candidate.properties, **candidate.attributes}
        if any(attrs.get(k) != v for k, v in wanted.items()):
            continue
        found.append(candidate)
    return [found]


def _tile(op: Operation, handles: Handles, run: Callable[[Operation], TilingResult]) -> list[list[Operation]]:
    """Apply ``run`` to each target: the tiled ops, then one handle per loop."""
    tiled: list[Operation] = []
    loops: list[list[Operation]] = [[] for _ in op.results[1:]]
    for target in handles[op.operands[0]]:
        if not is_tileable(target):
            raise failure(op, "only ops implementing TilingInterface are supported", target)
        try:
            result = run(target)
        except TilingError as exc:
            raise failure(op, str(exc), target) from None
        tiled.append(result.tiled_op)
        for handle, loop in zip(loops, result.loops):
            handle.append(loop)
    return [tiled, *loops]


def _tile_using_for(op: TileUsingForOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    if op.dynamic_sizes:
        raise failure(op, "dynamic tile sizes are not supported yet")
    if op.scalable_sizes is not None and any(op.scalable_sizes.get_values()):
        raise failure(op, "scalable tile sizes are not supported yet")
    sizes = static_values(op.static_sizes)
    interchange = static_values(op.interchange)
    return _tile(op, handles, lambda target: tile_using_for(target, sizes, interchange))


def _fuse(op: FuseOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    sizes = static_values(op.static_tile_sizes)
    interchange = static_values(op.static_tile_interchange)
    forall = op.use_forall is not None
    return _tile(
        op, handles, lambda target: tile_and_fuse(target, sizes, interchange, forall)
    )


def _tile_using_forall(op: TileUsingForallOp, handles: Handles, ctx: Context) -> list[list[Operation]]:
    sizes = op.static_tile_sizes
    counts = op.static_num_threads
    if sizes is not None and counts is not None:
        raise failure(op, "num_threads and tile_sizes cannot be given together")
    given = static_values(sizes if sizes is not None else counts)

    def run(target: Operation) -> TilingResult:
        if sizes is not None:
            return tile_using_forall(target, tile_sizes=given, mapping=op.mapping)
        return tile_using_forall(target, num_threads=given, mapping=op.mapping)

    tiled, forall = _tile(op, handles, run)
    return [tiled, forall]


@dataclass(frozen=True)
class TransformInterpreter(ModulePass):
    """Transform dialect interpreter"""

    name = "transform-interpreter"

    entry_point: str = option("__transform_main", "Entry point of the pass pipeline.")
    debug_payload_root_tag: str = option(
        "", "Select the operation with 'transform.target_tag' attribute having the given value as payload IR root."
    )
    disable_expensive_checks: bool = option(False, "Disable expensive checks in the interpreter for a faster run.")

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        entry = next(
            (
                candidate
                for candidate in op.walk()
                if isinstance(candidate, xtransform.NamedSequenceOp)
                and candidate.sym_name.data == self.entry_point
            ),
            None,
        )
        if entry is None:
            raise emit_error(ctx, op, f"could not find a nested named sequence with name: {self.entry_point}")
        root: Operation = op
        if self.debug_payload_root_tag:
            tagged = [
                o
                for o in op.walk()
                if getattr(o.attributes.get("transform.target_tag"), "data", None)
                == self.debug_payload_root_tag
            ]
            if len(tagged) != 1:
                raise emit_error(
                    ctx, op, f"expected exactly one payload root tagged '{self.debug_payload_root_tag}'"
                )
            root = tagged[0]
        block = entry.body.block
        handles: Handles = {}
        if block.args:
            handles[block.args[0]] = [root]
        for transform_op in block.ops:
            run = _INTERPRETERS.get(type(transform_op))
            if run is None:
                if isinstance(transform_op, xtransform.YieldOp):
                    break
                raise emit_error(
                    ctx, transform_op, f"'{transform_op.name}' is not supported by mlkit's transform interpreter"
                )
            for result, payload in zip(transform_op.results, run(transform_op, handles, ctx)):
                handles[result] = payload


_INTERPRETERS: dict[type[Operation], Callable[..., list[list[Operation]]]] = {
    xtransform.MatchOp: _match,
    TileUsingForOp: _tile_using_for,
    FuseOp: _fuse,
    TileUsingForallOp: _tile_using_forall,
    **HANDLE_INTERPRETERS,
}
