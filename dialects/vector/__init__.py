"""The ``vector`` dialect: xDSL's, with what upstream has and xDSL lacks or
writes differently.

* ``positions``: ``vector.extract``/``insert`` with upstream's position checks;
* ``contract``: ``vector.contract`` and ``vector.outerproduct``;
* ``mask``: ``vector.mask``, ``vector.yield``, and ``vector.create_mask``
  with upstream's wording;
* ``print``: ``vector.print`` with upstream's syntax (punctuation, strings);
* ``shuffle``: ``vector.broadcast`` and ``vector.shuffle`` with upstream's checks;
* ``transfer``: ``vector.transfer_read``/``write`` with upstream's words.

The subclasses replace xDSL's ops of the same name; passes match xDSL's
classes with isinstance, so they keep working on mlkit's ops.
"""

from __future__ import annotations

from xdsl.dialects import vector as xvector
from xdsl.ir import Dialect

from mlkit.dialects.utils.dialects import op_lookup, with_replacements
from mlkit.dialects.vector.contract import ContractionOp, IteratorTypeAttr, OuterProductOp
from mlkit.dialects.vector.mask import CreateMaskOp, MaskOp, YieldOp
from mlkit.dialects.vector.positions import POISON_INDEX, ExtractOp, InsertOp, verify_positions
from mlkit.dialects.vector.print import PrintOp, PrintPunctuationAttr
from mlkit.dialects.vector.shuffle import BroadcastOp, ShuffleOp
from mlkit.dialects.vector.transfer import TransferReadOp, TransferWriteOp

_DIALECT = with_replacements(
    xvector.Vector,
    {
        xvector.ExtractOp: ExtractOp, xvector.InsertOp: InsertOp,
        xvector.PrintOp: PrintOp, xvector.CreateMaskOp: CreateMaskOp,
        xvector.BroadcastOp: BroadcastOp, xvector.ShuffleOp: ShuffleOp,
        xvector.TransferReadOp: TransferReadOp, xvector.TransferWriteOp: TransferWriteOp,
    },
    [ContractionOp, OuterProductOp, MaskOp, YieldOp],
)
Vector = Dialect(
    "vector",
    list(_DIALECT.operations),
    [*_DIALECT.attributes, IteratorTypeAttr, PrintPunctuationAttr],
    list(_DIALECT._interfaces),  # pyright: ignore[reportPrivateUsage]
)

__all__ = [
    "POISON_INDEX", "BroadcastOp", "ContractionOp", "CreateMaskOp", "ExtractOp", "InsertOp",
    "IteratorTypeAttr", "ShuffleOp", "TransferReadOp", "TransferWriteOp",
    "MaskOp", "OuterProductOp", "PrintOp", "PrintPunctuationAttr", "Vector", "YieldOp",
    "verify_positions",
]

__getattr__ = op_lookup(__name__, lambda: Vector)
