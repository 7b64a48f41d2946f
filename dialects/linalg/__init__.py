"""The linalg dialect, in upstream MLIR's syntax.

The ops live in parts: :mod:`.structural` (generic, index), :mod:`.body`
(yield and the named ops' bodies), :mod:`.map_ops` (map, reduce, transpose,
broadcast), :mod:`.elementwise` (fill, copy, add ... select, elementwise),
:mod:`.contraction` (matmul ... mmt4d), :mod:`.conv` (convolutions, poolings)
and :mod:`.relayout` (pack, unpack, softmax). Every structured op answers
``get_indexing_maps()`` and ``get_iterator_types()``; named ops also
``build_region()``, the body of the equivalent ``linalg.generic``, which
``generalize()`` builds.
"""

from __future__ import annotations

from xdsl.ir import Dialect, Operation
from xdsl.rewriter import Rewriter

from mlkit.dialects.linalg.attrs import BinaryFnAttr, ElementwiseKindAttr, IteratorTypeAttr
from mlkit.dialects.linalg.attrs import TernaryFnAttr, TypeFnAttr, UnaryFnAttr
from mlkit.dialects.linalg.contraction import CONTRACTION_OPS
from mlkit.dialects.linalg.conv import CONV_OPS
from mlkit.dialects.linalg.elementwise import ELEMENTWISE_OPS
from mlkit.dialects.linalg.map_ops import BroadcastOp, DestinationStyleOp, MapOp, ReduceOp
from mlkit.dialects.linalg.map_ops import TransposeOp
from mlkit.dialects.linalg.named_base import NamedStructuredOp
from mlkit.dialects.linalg.relayout import PackOp, SoftmaxOp, UnPackOp
from mlkit.dialects.linalg.structural import GenericOp, IndexOp, YieldOp
from mlkit.dialects.utils.dialects import op_lookup

__all__ = ["Linalg", "generalize", "generalize_in_place"]


def generalize(op: Operation) -> GenericOp:
    """The ``linalg.generic`` equivalent to a named or structural op (upstream's
    ``linalg-generalize-named-ops``): its maps, iterators, a copy of its body and
    its discardable attributes."""
    if isinstance(op, NamedStructuredOp):
        inputs, inits, body = list(op.inputs), list(op.outputs), op.body
    elif isinstance(op, DestinationStyleOp):
        inputs, inits, body = op.inputs_list(), op.inits_list(), op.body
    else:
        raise TypeError(f"'{op.name}' is not a structured op with a body")
    generic = GenericOp(
        inputs,
        inits,
        body.clone(),
        op.get_indexing_maps(),
        op.get_iterator_types(),
        [r.type for r in op.results],
    )
    generic.attributes.update(op.attributes)
    return generic


def generalize_in_place(op: Operation) -> GenericOp:
    """Replace ``op`` by its generic form and return it."""
    generic = generalize(op)
    Rewriter.replace_op(op, generic)
    return generic


_OPS: list[type[Operation]] = [
    GenericOp,
    IndexOp,
    YieldOp,
    MapOp,
    ReduceOp,
    TransposeOp,
    BroadcastOp,
    *ELEMENTWISE_OPS,
    *CONTRACTION_OPS,
    *CONV_OPS,
    PackOp,
    UnPackOp,
    SoftmaxOp,
]

Linalg = Dialect(
    "linalg",
    _OPS,
    [
        IteratorTypeAttr,
        TypeFnAttr,
        UnaryFnAttr,
        BinaryFnAttr,
        TernaryFnAttr,
        ElementwiseKindAttr,
    ],
)

__getattr__ = op_lookup(__name__, lambda: Linalg)
