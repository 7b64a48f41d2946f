"""Differential tests of mlkit's ``func`` dialect against upstream MLIR.

The ops file must print (custom and generic) as IR upstream reads the same way,
every chunk of the invalid file must be rejected by upstream too, and the ops
mlkit subclasses must still be instances of xDSL's classes, which passes match.
"""

from __future__ import annotations

import pytest
from mlkit.dialects import func
from upstream_oracle import dialect_differential_tests, mlkit_print, upstream_print
from xdsl.dialects import func as xfunc

from mlkit.dialects import DIALECTS
from mlkit.registry import import_object

test_upstream_reads_same_ir, test_upstream_rejects_invalid_chunk = (
    dialect_differential_tests("func")
)


def test_registered_dialect_is_mlkits() -> None:
    assert import_object(DIALECTS["func"]) is func.Func


@pytest.mark.parametrize("ours", [func.FuncOp, func.CallOp, func.ReturnOp])
def test_subclasses_keep_xdsl_matching(ours: type) -> None:
    """Passes match xDSL's op classes with isinstance."""
    assert issubclass(ours, getattr(xfunc, ours.__name__))
    assert ours in list(func.Func.operations)
    assert getattr(xfunc, ours.__name__) not in list(func.Func.operations)


@pytest.mark.parametrize(
    "text",
    [
        "func.func private @f(memref<*xf32>)\n",
        "func.func private @f(i32 {llvm.noundef}) -> (i32 {llvm.noundef})\n",
        "func.func private @f() -> ((i32) -> i32)\n",
    ],
)
def test_declarations_print_as_upstream(text: str) -> None:
    assert mlkit_print(text).strip() == upstream_print(text, generic=False).strip()


def test_no_inline_is_a_property() -> None:
    text = "func.func private @g()\nfunc.func @f() {\n  call @g() {no_inline} : () -> ()\n  return\n}\n"
    assert "<{callee = @g, no_inline}>" in mlkit_print(text, generic=True)


def test_inherent_attrs_in_attribute_dict_become_properties() -> None:
    text = "func.func @f(%x: i32) attributes {arg_attrs = [{llvm.noundef}]} {\n  return\n}\n"
    assert mlkit_print(text).strip() == upstream_print(text, generic=False).strip()
