"""Tests for the mlkit-opt driver run in-process: round trips, located errors for
every kind of bad input (never a traceback), output files, split input, and very
deep nesting."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest

from mlkit.driver.deep_stack import run_with_deep_stack
from mlkit.tools.opt import run

LOCATED = re.compile(r"^(?P<file>[^\n:]+):(?P<line>\d+):(?P<col>\d+): error: (?P<msg>.*)$")


def opt(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    rc = run(list(argv), out, err)
    return rc, out.getvalue(), err.getvalue()


def assert_clean_failure(rc: int, out: str, err: str) -> None:
    assert rc == 1
    assert out == ""
    assert "Traceback" not in err
    assert "internal error" not in err


def first_error(err: str) -> re.Match[str]:
    m = LOCATED.match(err.splitlines()[0] if err else "")
    assert m is not None, f"not a located error: {err!r}"
    return m


PROGRAM = """\
func.func @f(%a: i32) -> i32 {
  %0 = arith.addi %a, %a : i32
  %1 = arith.addi %a, %a : i32
  %2 = arith.muli %0, %1 : i32
  return %2 : i32
}
"""


@pytest.fixture
def src(tmp_path: Path) -> Path:
    path = tmp_path / "in.mlir"
    path.write_text(PROGRAM)
    return path


# ---------------------------------------------------------------- success


def test_round_trip(src: Path, tmp_path: Path) -> None:
    rc, out, err = opt(str(src))
    assert (rc, err) == (0, "")
    assert out.startswith("module {\n  func.func @f(%arg0: i32) -> i32 {\n")
    assert out.count("arith.addi") == 2 and out.endswith("}\n")
    # printing is a fixed point: the output parses back to the same text
    again = tmp_path / "again.mlir"
    again.write_text(out)
    assert opt(str(again)) == (0, out, "")


def test_pass_flag_transforms(src: Path) -> None:
    rc, out, err = opt(str(src), "-cse")
    assert (rc, err) == (0, "")
    assert out.count("arith.addi") == 1
    rc, out2, err = opt(str(src), "--pass-pipeline=builtin.module(func.func(cse))")
    assert (rc, err, out2) == (0, "", out)


def test_generic_printing(src: Path) -> None:
    rc, out, _ = opt(str(src), "--mlir-print-op-generic")
    assert rc == 0
    assert '"func.return"(%2) : (i32) -> ()' in out


# ---------------------------------------------------------------- bad input

BAD_INPUTS = {
    "truncated": (
        b"func.func @f(%a: i32) -> i32 {\n  %0 = arith.addi %a, %a : i32\n",
        (3, 1),
        "unexpected end of input",
    ),
    "binary-garbage": (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\xde\xad\xbe\xef", (1, 1), "invalid UTF-8"),
    "invalid-utf8": (
        b'module {\n  "test.op"() {a = "\xff"} : () -> ()\n}\n',
        (2, 21),
        "invalid UTF-8 byte sequence in input",
    ),
    "nul-byte": (b"module {\n}\x00\n", (2, 2), "unexpected NUL byte in input"),
    "unknown-op": (
        b'module {\n  %0 = "foo.bar"() : () -> i32\n}\n',
        (2, 8),
        "operation being parsed with an unregistered dialect",
    ),
    "undefined-value": (
        b"func.func @f() -> i32 {\n  return %x : i32\n}\n",
        (2, 10),
        "use of undeclared SSA value name",
    ),
    "redefined-value": (
        b"func.func @f() -> i32 {\n  %0 = arith.constant 1 : i32\n"
        b"  %0 = arith.constant 2 : i32\n  return %0 : i32\n}\n",
        (3, 3),
        "redefinition of SSA value '%0'",
    ),
    "undefined-block": (b"func.func @f() {\n  cf.br ^bb9\n}\n", (2, 9), "bb9"),
    "duplicate-symbol": (
        b"func.func @f() {\n  return\n}\nfunc.func @f() {\n  return\n}\n",
        None,
        "edefinition of symbol",
    ),
    "out-of-range-integer": (
        b"func.func @f() -> i8 {\n  %0 = arith.constant 300 : i8\n  return %0 : i8\n}\n",
        (2, None),
        "Integer value 300 is out of range for type i8",
    ),
    "dense-wrong-size": (
        b"func.func @f() -> tensor<3xi32> {\n"
        b"  %0 = arith.constant dense<[1, 2]> : tensor<3xi32>\n"
        b"  return %0 : tensor<3xi32>\n}\n",
        None,
        "inferred shape of elements literal ([2]) does not match type ([3])",
    ),
    "verifier-failure": (
        b"func.func @f() -> i32 {\n  %0 = arith.constant 1 : i64\n  return %0 : i64\n}\n",
        (3, 3),
        "'func.return' op type of return operand 0 ('i64') doesn't match function result "
        "type ('i32') in function @f",
    ),
}


@pytest.mark.parametrize("case", sorted(BAD_INPUTS))
def test_bad_input_is_a_located_error(case: str, tmp_path: Path) -> None:
    data, where, message = BAD_INPUTS[case]
    path = tmp_path / "bad.mlir"
    path.write_bytes(data)
    rc, out, err = opt(str(path))
    assert_clean_failure(rc, out, err)
    m = first_error(err)
    assert m["file"] == str(path)
    assert message in m["msg"]
    if where is not None:
        line, col = where
        assert int(m["line"]) == line
        if col is not None:
            assert int(m["col"]) == col


def test_error_quotes_source_line_with_caret(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(BAD_INPUTS["unknown-op"][0])
    rc, _, err = opt(str(path))
    assert rc == 1
    assert err.splitlines()[1:3] == ['  %0 = "foo.bar"() : () -> i32', "       ^"]


def test_dense_wrong_size_points_at_its_op(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(BAD_INPUTS["dense-wrong-size"][0])
    rc, out, err = opt(str(path))
    assert_clean_failure(rc, out, err)
    assert int(first_error(err)["line"]) == 2


def test_duplicate_symbol_points_at_redefinition(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(BAD_INPUTS["duplicate-symbol"][0])
    rc, out, err = opt(str(path))
    assert_clean_failure(rc, out, err)
    assert int(first_error(err)["line"]) == 4


@pytest.mark.parametrize(
    "data",
    [b"\x01\x02\x03", b"%", b'"unterminated', b"\xef\xbb\xbfmodule {}\n"],
    ids=["control-bytes", "lone-percent", "unterminated-string", "utf8-bom"],
)
def test_bad_first_token_is_a_located_error(data: bytes, tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_bytes(data)
    rc, out, err = opt(str(path))
    assert_clean_failure(rc, out, err)
    assert first_error(err)["line"] == "1"


def test_verifier_error_is_located(tmp_path: Path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(
        "func.func @f(%m: memref<4xf32>) {\n  %0 = memref.load %m[] : memref<4xf32>\n  return\n}\n"
    )
    rc, out, err = opt(str(path))
    assert_clean_failure(rc, out, err)
    m = first_error(err)
    assert (m["line"], m["col"]) == ("2", "3")
    assert "invalid number of indices for accessed memref, expected 1 but got 0" in m["msg"]


def test_missing_file(tmp_path: Path) -> None:
    missing = tmp_path / "missing.mlir"
    rc, out, err = opt(str(missing))
    assert_clean_failure(rc, out, err)
    assert err == (
        f"{missing}: error: could not open input file '{missing}': No such file or directory\n"
    )


def test_unknown_emit_value(src: Path) -> None:
    rc, out, err = opt(str(src), "--emit=foo")
    assert_clean_failure(rc, out, err)
    assert err.startswith("mlkit-opt: error: unknown --emit value 'foo' (expected one of: mlir")


def test_unknown_flag(src: Path) -> None:
    rc, out, err = opt(str(src), "--bogus-flag")
    assert_clean_failure(rc, out, err)
    assert err.startswith(
        "mlkit-opt: Unknown command line argument '--bogus-flag'.  Try: 'mlkit-opt --help'"
    )


def test_bad_pipeline_is_a_located_error(src: Path) -> None:
    rc, out, err = opt(str(src), "--pass-pipeline=builtin.module(nope)")
    assert_clean_failure(rc, out, err)
    assert err.splitlines()[0] == (
        "<pass-pipeline>:1:16: error: 'nope' does not refer to a registered pass or pass pipeline"
    )


# ---------------------------------------------------------------- output files


def test_output_file_created_on_success(src: Path, tmp_path: Path) -> None:
    target = tmp_path / "out.mlir"
    rc, out, err = opt(str(src), "-o", str(target))
    assert (rc, out, err) == (0, "", "")
    assert target.read_text() == opt(str(src))[1]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["in.mlir", "out.mlir"]


def test_output_file_not_created_on_failure(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_bytes(BAD_INPUTS["verifier-failure"][0])
    target = tmp_path / "out.mlir"
    rc, out, err = opt(str(bad), f"-o={target}")
    assert_clean_failure(rc, out, err)
    first_error(err)
    assert not target.exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.mlir"]  # no temp file left


def test_output_file_not_created_for_missing_input(tmp_path: Path) -> None:
    target = tmp_path / "out.mlir"
    rc, _, _ = opt(str(tmp_path / "missing.mlir"), "-o", str(target))
    assert rc == 1
    assert not target.exists()


def test_unwritable_output_is_an_error(src: Path, tmp_path: Path) -> None:
    target = tmp_path / "no-such-dir" / "out.mlir"
    rc, out, err = opt(str(src), "-o", str(target))
    assert_clean_failure(rc, out, err)
    assert err.startswith(f"{target}: error: could not write output file")


# ---------------------------------------------------------------- split input

SPLIT = """\
func.func @a() {
  return
}

// -----

func.func @b() {
  return
}
// -----
func.func @c() {
  return
}
"""


def test_split_input_file_keeps_separators(tmp_path: Path) -> None:
    path = tmp_path / "split.mlir"
    path.write_text(SPLIT)
    rc, out, err = opt(str(path), "--split-input-file")
    assert (rc, err) == (0, "")
    chunks = out.split("// -----\n")
    assert len(chunks) == 3
    for chunk, name in zip(chunks, "abc"):
        assert chunk.startswith("module {\n")
        assert f"func.func @{name}()" in chunk
        assert chunk.endswith("}\n")
    # without the flag, the separators are comments and the input is one module
    rc, whole, _ = opt(str(path))
    assert rc == 0 and "// -----" not in whole and whole.count("module {") == 1


def test_split_input_errors_use_original_lines(tmp_path: Path) -> None:
    path = tmp_path / "split.mlir"
    bad_b = "func.func @b() {\n  %x = arith.constant 1 : i64\n  return %x : i64"
    path.write_text(SPLIT.replace("func.func @b() {\n  return", bad_b))
    target = tmp_path / "out.mlir"
    rc, out, err = opt(str(path), "--split-input-file", "-o", str(target))
    assert_clean_failure(rc, out, err)
    m = first_error(err)
    assert (m["line"], m["col"]) == ("9", "3")  # the 'return' of @b in the whole file
    assert err.count(": error:") == 1  # the other chunks are fine
    assert not target.exists()


def test_split_input_prints_the_chunks_that_succeed(tmp_path: Path) -> None:
    # as mlir-opt: each good chunk's output, the failed one's place kept between
    # markers, and exit status 1
    path = tmp_path / "split.mlir"
    bad_b = "func.func @b() {\n  %x = arith.constant 1 : i64\n  return %x : i64"
    path.write_text(SPLIT.replace("func.func @b() {\n  return", bad_b))
    rc, out, err = opt(str(path), "--split-input-file")
    assert rc == 1 and err.count(": error:") == 1
    chunks = out.split("// -----\n")
    assert len(chunks) == 3 and chunks[1] == ""
    assert "func.func @a()" in chunks[0] and "func.func @c()" in chunks[2]


# ---------------------------------------------------------------- upstream's flags


def test_version_names_the_installed_distribution() -> None:
    # the distribution is mlkit-compiler (mlkit on PyPI is another project)
    rc, out, _ = opt("--version")
    assert rc == 0 and out.startswith("mlkit version ") and "unknown" not in out.splitlines()[0]


def test_flags_run_lines_carry_are_accepted(src: Path) -> None:
    rc, plain, _ = opt(str(src))
    flags = ("--mlir-print-local-scope", "--mlir-disable-threading", "-debug-only=a,b", "--debug")
    rc2, out, err = opt(str(src), *flags, "--verify-roundtrip")
    assert (rc, rc2, err, out) == (0, 0, "", plain)


def test_verify_roundtrip_reports_ir_that_does_not_parse_back(
    src: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mlkit.syntax.printer as printer

    real = printer.print_op

    def lossy(op, *, generic=False, debuginfo=False):  # type: ignore[no-untyped-def]
        text = real(op, generic=generic, debuginfo=debuginfo)
        return text.replace('"func.return"', '"func.retrun"') if generic else text

    monkeypatch.setattr(printer, "print_op", lossy)
    rc, out, err = opt(str(src), "--verify-roundtrip")
    assert_clean_failure(rc, out, err)
    assert "'builtin.module' op failed to parse textual content back" in first_error(err)["msg"]


def test_verify_roundtrip_reports_ir_that_prints_differently(
    src: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import mlkit.syntax.printer as printer

    real = printer.print_op
    calls: list[int] = []

    def drifting(op, *, generic=False, debuginfo=False):  # type: ignore[no-untyped-def]
        calls.append(1)
        text = real(op, generic=generic, debuginfo=debuginfo)
        return text.replace("i32", "i64") if len(calls) == 2 else text

    monkeypatch.setattr(printer, "print_op", drifting)
    rc, out, err = opt(str(src), "--verify-roundtrip")
    assert_clean_failure(rc, out, err)
    assert "textual roundTrip testing roundtripped module differs from reference" in err
    assert "<<<<<<Reference" in err and ">>>>>roundtripped" in err


# ---------------------------------------------------------------- deep nesting


def test_deeply_nested_regions(tmp_path: Path) -> None:
    depth = 3000
    text = (
        '"test.op"() ({\n' * depth
        + '"test.op"() : () -> ()\n'
        + "}) : () -> ()\n" * depth
    )
    path = tmp_path / "deep.mlir"
    path.write_text(text)
    rc, out, err = run_with_deep_stack(lambda: opt(str(path), "--allow-unregistered-dialect"))
    assert (rc, err) == (0, "")
    assert out.count('"test.op"()') == depth + 1
    assert out.startswith('module {\n  "test.op"() ({\n    "test.op"() ({\n')
    # the innermost op sits depth + 1 levels deep
    assert "  " * (depth + 1) + '"test.op"() : () -> ()\n' in out
