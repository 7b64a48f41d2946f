"""What mlkit does to compile faster (issue 16) must not change what it
compiles: the one-match lexer gives xDSL's tokens, the type converter's memo
gives the converter's answers, and mlkit.compile, verifying only at the ends
of its pipeline, still reports a pass that broke the IR."""

from __future__ import annotations

from pathlib import Path

import pytest
from xdsl.ir import Operation
from xdsl.utils.exceptions import ParseError
from xdsl.utils.lexer import Input
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRTokenKind

from mlkit.syntax.lexer import LinearLexer

LIT = Path(__file__).resolve().parent.parent / "lit_tests"

TRICKY = [
    "%0 %arg1 %a.b$c %-x ^bb0 #map #-} {-# !llvm.ptr !t-1 @f @\"q\" ... -> - -1 --x",
    "a:b,c(d)e{f}[g]<h>=i+j/k*l?m|n // comment\n// another\n  x",
    "0x1F 0xg 12 1.5 1.5e-3 1. 8x8xf32 1e3 é %é \"s\\n\" \"\\41\"",
    "#-", "%", "^", "{-", "{", "}", "-", "->", "",
]


def tokens(lexer_class: type[MLIRLexer], text: str) -> list[tuple[MLIRTokenKind, int, int]]:
    """Every token of ``text`` as (kind, start, end), up to EOF or the first
    error (whose position ends the list)."""
    lexer = lexer_class(Input(text, "t.mlir"))
    out: list[tuple[MLIRTokenKind, int, int]] = []
    while True:
        try:
            token = lexer.lex()
        except ParseError as err:
            out.append((MLIRTokenKind.EOF, -1, err.span.start))
            return out
        out.append((token.kind, token.span.start, token.span.end))
        if token.kind == MLIRTokenKind.EOF:
            return out


@pytest.mark.parametrize("text", TRICKY)
def test_the_lexer_gives_xdsls_tokens(text: str) -> None:
    assert tokens(LinearLexer, text) == tokens(MLIRLexer, text)


def test_the_lexer_gives_xdsls_tokens_on_every_lit_test() -> None:
    files = sorted(LIT.rglob("*.mlir"))
    assert len(files) > 100
    for path in files:
        text = path.read_text()
        if '"' in text and "\\" in text:
            continue  # strings with escapes: mlkit's scanner differs on purpose when they fail
        assert tokens(LinearLexer, text) == tokens(MLIRLexer, text), path


def test_type_conversions_are_remembered_per_converter() -> None:
    from xdsl.dialects.builtin import IndexType, MemRefType, VectorType, f32

    from mlkit.passes.conversion.llvm_common.type_converter import LLVMTypeConverter

    wide, narrow = LLVMTypeConverter(), LLVMTypeConverter(index_bitwidth=32)
    memref = MemRefType(f32, [4, 8])
    assert wide.convert_type(memref) is wide.convert_type(memref)
    assert wide.convert_type(IndexType()) != narrow.convert_type(IndexType())
    assert wide == LLVMTypeConverter()  # the memo is no part of a converter's identity
    assert wide.convert_type(VectorType(f32, [2, 4])) == LLVMTypeConverter().convert_type(
        VectorType(f32, [2, 4])
    )


def test_compile_still_reports_a_pass_that_breaks_the_ir(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without verification after each pass, IR a pass broke is still caught
    before it reaches LLVM, as a ValueError."""
    import mlkit
    from mlkit.pipeline import manager

    run_pass = manager.PassRunner._run_pass
    broken: list[str] = []

    def breaking(self: manager.PassRunner, node: manager.PassNode, op: Operation) -> None:
        run_pass(self, node, op)
        if node.name == "reconcile-unrealized-casts":  # the last pass: a return lost
            returns = [o for o in op.walk() if o.name == "llvm.return"]
            returns[0].detach()
            broken.append(node.name)

    monkeypatch.setattr(manager.PassRunner, "_run_pass", breaking)
    source = "func.func @f(%x: f64) -> f64 {\n  return %x : f64\n}\n"
    with pytest.raises(ValueError, match="terminator"):
        mlkit.compile(source, cache=False)
    assert broken
