"""The LLVM dialect (``llvm``), as upstream MLIR writes it.

The op, type and attribute definitions live in the part modules of this package;
this module gathers them into the :data:`LLVM` dialect object and re-exports
them, so passes import every LLVM name from here. Every op and type replaces
xDSL's (whose type classes are final and whose ops disagree with upstream in
syntax or properties); each part module says where.
"""

from __future__ import annotations

from xdsl.ir import Dialect

from mlkit.dialects.llvm.arith import *  # noqa: F403
from mlkit.dialects.llvm.arith import ARITH_OPS
from mlkit.dialects.llvm.atomic import *  # noqa: F403
from mlkit.dialects.llvm.atomic import ATOMIC_OPS
from mlkit.dialects.llvm.attrs import *  # noqa: F403
from mlkit.dialects.llvm.attrs import CConvAttr, ConstantRangeAttr, FastMathAttr, LinkageAttr
from mlkit.dialects.llvm.attrs import TailCallKindAttr
from mlkit.dialects.llvm.control import *  # noqa: F403
from mlkit.dialects.llvm.control import CONTROL_OPS
from mlkit.dialects.llvm.ctors import *  # noqa: F403
from mlkit.dialects.llvm.ctors import STRUCTOR_OPS, ZeroAttr
from mlkit.dialects.llvm.intr import *  # noqa: F403
from mlkit.dialects.llvm.intr import INTRINSIC_OPS
from mlkit.dialects.llvm.intr_ext import *  # noqa: F403
from mlkit.dialects.llvm.intr_ext import INTRINSIC_EXT_OPS
from mlkit.dialects.llvm.memory import *  # noqa: F403
from mlkit.dialects.llvm.memory import MEMORY_OPS
from mlkit.dialects.llvm.symbols import *  # noqa: F403
from mlkit.dialects.llvm.symbols import SYMBOL_OPS
from mlkit.dialects.llvm.types import *  # noqa: F403
from mlkit.dialects.llvm.types import LLVM_TYPES
from mlkit.dialects.llvm.values import *  # noqa: F403
from mlkit.dialects.llvm.values import VALUE_OPS
from mlkit.dialects.utils.dialects import op_lookup

LLVM = Dialect(
    "llvm",
    [*ARITH_OPS, *MEMORY_OPS, *ATOMIC_OPS, *VALUE_OPS, *CONTROL_OPS, *SYMBOL_OPS, *INTRINSIC_OPS,
     *INTRINSIC_EXT_OPS, *STRUCTOR_OPS],
    [*LLVM_TYPES, LinkageAttr, CConvAttr, TailCallKindAttr, FastMathAttr, ConstantRangeAttr,
     ZeroAttr],
)

__getattr__ = op_lookup(__name__, lambda: LLVM)
