"""Upstream's ``CallOp::verifySymbolUses`` for ``llvm.call``: the callee is an
``llvm.func`` and the call's operands, results and ``vararg`` type match its
signature, with upstream's messages (translation to LLVM IR would otherwise
build an ill-typed ``call``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from xdsl.dialects.builtin import SymbolRefAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.traits import SymbolTable
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.llvm.symbols import FuncOp
from mlkit.dialects.llvm.types import LLVMFunctionType, LLVMPointerType, LLVMVoidType


class CallOp(Protocol):
    """What the checks read of an ``llvm.call``."""

    callee: SymbolRefAttr | None
    var_callee_type: Attribute | None
    callee_operands: Sequence[SSAValue]
    result: Sequence[SSAValue]


def _verify_var_callee_type(op: CallOp, args: Sequence[SSAValue]) -> None:
    var_type = op.var_callee_type
    if var_type is None:
        return
    assert isinstance(var_type, LLVMFunctionType)
    if not var_type.is_variadic:
        raise VerifyException("expected var_callee_type to be a variadic function type")
    params = var_type.inputs.data
    if len(params) > len(args):
        raise VerifyException(f"expected var_callee_type to have at most {len(args)} parameters")
    for param, arg in zip(params, args):
        if param != arg.type:
            raise VerifyException(f"var_callee_type parameter type mismatch: '{param}' != '{arg.type}'")
    if not op.result:
        if not isinstance(var_type.output, LLVMVoidType):
            raise VerifyException("expected var_callee_type to return void")
    elif op.result[0].type != var_type.output:
        raise VerifyException(
            f"var_callee_type return type mismatch: '{var_type.output}' != '{op.result[0].type}'"
        )


def verify_call(op: CallOp) -> None:
    """Raise upstream's error when ``op`` does not fit what it calls."""
    operands = list(op.callee_operands)
    indirect = op.callee is None
    args = operands[1:] if indirect else operands
    _verify_var_callee_type(op, args)
    if indirect:
        if not operands:
            raise VerifyException("must have either a `callee` attribute or at least an operand")
        if not isinstance(operands[0].type, LLVMPointerType):
            raise VerifyException(f"indirect call expects a pointer as callee: '{operands[0].type}'")
        return
    assert op.callee is not None
    name = op.callee.root_reference.data
    assert isinstance(op, Operation)
    callee = SymbolTable.lookup_symbol(op, op.callee)
    if callee is None:
        raise VerifyException(f"'{name}' does not reference a symbol in the current scope")
    if not isinstance(callee, FuncOp):
        raise VerifyException(f"'{name}' does not reference a valid LLVM function, IFunc, or alias")
    fn = callee.function_type
    assert isinstance(fn, LLVMFunctionType)
    params = fn.inputs.data
    if fn.is_variadic and op.var_callee_type is None:
        raise VerifyException("missing var_callee_type attribute for vararg call")
    if not fn.is_variadic and len(params) != len(args):
        raise VerifyException(
            f"incorrect number of operands ({len(args)}) for callee (expecting: {len(params)})"
        )
    if len(params) > len(args):
        raise VerifyException(
            f"incorrect number of operands ({len(args)}) for varargs callee "
            f"(expecting at least: {len(params)})"
        )
    for i, (param, arg) in enumerate(zip(params, args)):
        if arg.type != param:
            raise VerifyException(f"operand type mismatch for operand {i}: '{arg.type}' != '{param}'")
    void = isinstance(fn.output, LLVMVoidType)
    if not op.result and not void:
        raise VerifyException("expected function call to produce a value")
    if op.result and void:
        raise VerifyException("calling function with void result must not produce values")
    if len(op.result) > 1:
        raise VerifyException("expected LLVM function call to produce 0 or 1 result")
    if op.result and op.result[0].type != fn.output:
        raise VerifyException(f"result type mismatch: '{op.result[0].type}' != '{fn.output}'")
