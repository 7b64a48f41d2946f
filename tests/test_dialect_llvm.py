"""Differential tests of mlkit's llvm dialect against upstream MLIR, and checks
of the Python API lowerings build LLVM IR with."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from upstream_oracle import assert_upstream_reads_same_ir, ir, mlkit_print, upstream_print

ROOT = Path(__file__).resolve().parent.parent
LLVM_TESTS = ROOT / "lit_tests" / "Dialect" / "llvm"


def test_upstream_reads_mlkit_output() -> None:
    assert_upstream_reads_same_ir(LLVM_TESTS / "ops.mlir")


def _normalized_generic(text: str) -> list[str]:
    """Generic form with SSA names and the spacing before successor lists
    (a core-printer difference) normalized away."""
    lines = []
    for line in text.splitlines():
        line = re.sub(r"%[\w$.-]+", "%v", line.split("  //")[0]).rstrip()
        lines.append(line.replace(") [^", ")[^"))
    return [line for line in lines if line.strip()]


def test_generic_form_matches_upstream_text() -> None:
    """Properties, their defaults and their order are upstream's, byte for byte."""
    text = (LLVM_TESTS / "ops.mlir").read_text()
    assert _normalized_generic(mlkit_print(text, generic=True)) == _normalized_generic(
        upstream_print(text, generic=True)
    )


def _invalid_chunks() -> list[str]:
    return (LLVM_TESTS / "invalid.mlir").read_text().split("// -----")


@pytest.mark.parametrize("index", range(len(_invalid_chunks())))
def test_upstream_rejects_invalid_chunk(index: int) -> None:
    chunk = _invalid_chunks()[index]
    expected = re.search(r"expected-error[^{]*\{\{(.*)\}\}", chunk)
    assert expected is not None
    with pytest.raises(Exception) as info, ir.Context():
        ir.Module.parse(chunk)
    assert expected.group(1) in str(info.value)


TYPES = [
    "!llvm.ptr",
    "!llvm.ptr<3>",
    "!llvm.array<4 x i32>",
    "!llvm.struct<(ptr, ptr, i64, array<1 x i64>, array<1 x i64>)>",
    '!llvm.struct<"node", (ptr, struct<"node">)>',
    "!llvm.struct<packed (i8, i32)>",
    '!llvm.struct<"opaque", opaque>',
    "!llvm.func<i32 (ptr, ...)>",
    "!llvm.array<2 x struct<(f32, vector<4x!llvm.ptr<1>>)>>",
]


@pytest.mark.parametrize("type_text", TYPES)
def test_types_print_as_upstream(type_text: str) -> None:
    decl = f"func.func private @f({type_text})"
    assert f"({type_text})" in upstream_print(decl, generic=False)
    assert f"({type_text})" in mlkit_print(decl)


def test_builders_make_upstream_ir() -> None:
    """What a lowering builds through the Python API prints as upstream reads it."""
    from xdsl.dialects.builtin import ModuleOp, i32, i64
    from xdsl.ir import Block, Region

    from mlkit.dialects import llvm
    from mlkit.syntax.printer import print_op

    desc = llvm.LLVMStructType(
        [llvm.LLVMPointerType(), llvm.LLVMPointerType(), i64, llvm.LLVMArrayType(1, i64)]
    )
    block = Block(arg_types=[llvm.LLVMPointerType(), i64])
    ptr, index = block.args
    undef = llvm.UndefOp(desc)
    inserted = llvm.InsertValueOp(undef.res, ptr, [0])
    extracted = llvm.ExtractValueOp(inserted.res, [3, 0])
    gep = llvm.GEPOp(ptr, [index], i32)
    load = llvm.LoadOp(gep.res, i32, alignment=4)
    add = llvm.AddOp(load.res, load.res)
    cmp = llvm.ICmpOp(llvm.ICMP_PREDICATES["slt"], add.res, add.res)
    block.add_ops([undef, inserted, extracted, gep, load, add, cmp, llvm.ReturnOp(add.res)])
    func = llvm.FuncOp(
        "kernel", llvm.LLVMFunctionType([llvm.LLVMPointerType(), i64], i32), body=Region(block)
    )
    module = ModuleOp([func])
    module.verify()
    assert extracted.res.type == i64
    assert gep.indices == [index]
    text = print_op(module)
    assert upstream_print(text) == upstream_print(print_op(module, generic=True))
    assert "llvm.getelementptr %arg0[%arg1] : (!llvm.ptr, i64) -> !llvm.ptr, i32" in text
    assert "!llvm.struct<(ptr, ptr, i64, array<1 x i64>)>" in text
