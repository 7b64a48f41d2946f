"""``llvm.mlir.global_ctors`` / ``llvm.mlir.global_dtors`` and ``#llvm.zero``.

xDSL has neither: the functions a module runs before ``main`` and at exit
(LLVM's ``@llvm.global_ctors`` / ``@llvm.global_dtors`` arrays), each with a
priority and a data pointer (``#llvm.zero`` for none), in upstream's syntax
and with upstream's checks.
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import I32, ArrayAttr, IntegerAttr, SymbolRefAttr
from xdsl.ir import ParametrizedAttribute
from xdsl.irdl import IRDLOperation, irdl_attr_definition, prop_def
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.symbols import FuncOp
from mlkit.dialects.utils.ods import upstream_op


@irdl_attr_definition
class ZeroAttr(ParametrizedAttribute):
    """``#llvm.zero``: a zero (null) initializer."""

    name = "llvm.zero"


class _StructorsOp(IRDLOperation):
    """The shared checks of the two ops, whose function list is named
    ``ctors`` or ``dtors`` as the op is."""

    CONSTRAINT_TEXT: ClassVar[dict[str, str]] = {
        "ctors": "flat symbol ref array attribute",
        "dtors": "flat symbol ref array attribute",
        "priorities": "32-bit integer array attribute",
        "data": "array attribute",
    }
    priorities = prop_def(ArrayAttr[IntegerAttr[I32]])
    data = prop_def(ArrayAttr)

    def kind(self) -> str:
        """``ctors`` or ``dtors``."""
        return self.name.removeprefix("llvm.mlir.global_")

    def functions(self) -> ArrayAttr:
        """The ``ctors`` or ``dtors`` list."""
        functions = self.properties[self.kind()]
        assert isinstance(functions, ArrayAttr)
        return functions

    def verify_(self) -> None:
        functions, data = self.functions().data, self.data.data
        if not len(functions) == len(self.priorities.data) == len(data):
            raise VerifyException(
                f"{self.kind()}, priorities, and data must have the same number of elements"
            )
        for element in data:
            if not isinstance(element, SymbolRefAttr | ZeroAttr):
                raise VerifyException("data element must be symbol or #llvm.zero")
        for ref in functions:
            assert isinstance(ref, SymbolRefAttr)
            name = ref.root_reference.data
            target = SymbolTable.lookup_symbol(self, ref)
            if not isinstance(target, FuncOp):
                raise VerifyException(f"'{name}' does not reference a valid LLVM function")
            if target.is_declaration:
                raise VerifyException(f"'{name}' does not have a definition")


def _structors_op(kind: str, class_name: str) -> type[_StructorsOp]:
    """``llvm.mlir.global_<kind> <kind> = [@f], priorities = [0 : i32], data = [#llvm.zero]``."""
    namespace = {
        "name": f"llvm.mlir.global_{kind}",
        "__doc__": f"``llvm.mlir.global_{kind} {kind} = [@f], priorities = [0 : i32], data = [#llvm.zero]``.",
        "__module__": __name__,
        "__qualname__": class_name,
        kind: prop_def(ArrayAttr[SymbolRefAttr]),
        "assembly_format": (
            f"`{kind}` `=` ${kind} `,` `priorities` `=` $priorities `,` `data` `=` $data attr-dict"
        ),
    }
    return upstream_op(type(class_name, (_StructorsOp,), namespace))


GlobalCtorsOp = _structors_op("ctors", "GlobalCtorsOp")
GlobalDtorsOp = _structors_op("dtors", "GlobalDtorsOp")

STRUCTOR_OPS = [GlobalCtorsOp, GlobalDtorsOp]
