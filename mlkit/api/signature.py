"""Signatures of the functions ``mlkit.compile`` exposes, recorded before
lowering, and the ctypes types of their C interface (``_mlir_ciface_<name>``).

A signature is plain data (JSON-able) so that the disk cache can store it
next to the LLVM IR.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from functools import cache
from typing import Any

from xdsl.ir import Attribute, Operation

from mlkit.api.shapes import SizeTie, size_ties

DYNAMIC = -1

# element type name -> (numpy dtype name, ctypes scalar)
ELEMENT_TYPES: dict[str, tuple[str, Any]] = {
    "f16": ("float16", ctypes.c_uint16),
    "f32": ("float32", ctypes.c_float),
    "f64": ("float64", ctypes.c_double),
    "i1": ("bool", ctypes.c_bool),
    "i8": ("int8", ctypes.c_int8),
    "i16": ("int16", ctypes.c_int16),
    "i32": ("int32", ctypes.c_int32),
    "i64": ("int64", ctypes.c_int64),
    "index": ("int64", ctypes.c_int64),
}


@dataclass(frozen=True)
class ValueType:
    """A parameter or result: ``kind`` is 'scalar', 'memref' or 'tensor';
    ``shape`` uses -1 for a dynamic size; ``strided`` says the memref's
    layout lets any strides through (a fully dynamic strided layout)."""

    kind: str
    element: str
    shape: tuple[int, ...] = ()
    strided: bool = False
    text: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "element": self.element,
            "shape": list(self.shape),
            "strided": self.strided,
            "text": self.text,
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> ValueType:
        return ValueType(d["kind"], d["element"], tuple(d["shape"]), d["strided"], d["text"])


@dataclass(frozen=True)
class Signature:
    """A function's parameters and results, and which of its arguments'
    sizes its body needs equal (:mod:`mlkit.api.shapes`); ``names`` are the
    parameters' names in the source (``%x``), None where it has none, so
    that an error can say which argument it means."""

    name: str
    params: tuple[ValueType, ...]
    results: tuple[ValueType, ...]
    ties: tuple[SizeTie, ...] = ()
    names: tuple[str | None, ...] = ()

    def param_name(self, i: int) -> str | None:
        return self.names[i] if i < len(self.names) else None

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "params": [p.to_json() for p in self.params],
            "results": [r.to_json() for r in self.results],
            "ties": [t.to_json() for t in self.ties],
            "names": list(self.names),
        }

    @staticmethod
    def from_json(d: dict[str, Any]) -> Signature:
        return Signature(
            d["name"],
            tuple(ValueType.from_json(p) for p in d["params"]),
            tuple(ValueType.from_json(r) for r in d["results"]),
            tuple(SizeTie.from_json(t) for t in d["ties"]),
            tuple(d.get("names", ())),
        )


def checked_signature(d: Any) -> Signature:
    """A signature read back from the disk cache, or ValueError saying what
    in it cannot be one ``record_signatures`` wrote: the callables built
    from it trust it to describe the code."""
    try:
        sig = Signature.from_json(d)
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise ValueError(f"malformed signature: {type(exc).__name__}: {exc}") from None
    if not isinstance(sig.name, str) or not sig.name:
        raise ValueError("a signature without a function name")
    for what, values in (("parameter", sig.params), ("result", sig.results)):
        for i, v in enumerate(values):
            problem = _value_type_problem(v)
            if problem:
                raise ValueError(f"@{sig.name}: {what} {i}: {problem}")
    if sig.names and (
        len(sig.names) != len(sig.params)
        or not all(n is None or isinstance(n, str) for n in sig.names)
    ):
        raise ValueError(f"@{sig.name}: the parameter names do not match the parameters")
    for tie in sig.ties:
        if not isinstance(tie.reason, str) or not all(
            isinstance(i, int) and isinstance(k, int) and 0 <= i < len(sig.params)
            and sig.params[i].kind != "scalar" and 0 <= k < len(sig.params[i].shape)
            for i, k in tie.dims
        ):  # fmt: skip
            raise ValueError(f"@{sig.name}: a size tie names a dimension it has not")
    return sig


def _value_type_problem(v: ValueType) -> str | None:
    if v.kind not in ("scalar", "memref", "tensor") or v.element not in ELEMENT_TYPES:
        return f"unknown type {v.kind!r} of {v.element!r}"
    if not isinstance(v.text, str) or not isinstance(v.strided, bool):
        return "malformed type"
    if not all(isinstance(n, int) and not isinstance(n, bool) and n >= DYNAMIC for n in v.shape):
        return f"bad shape {list(v.shape)!r}"
    if v.kind == "scalar" and (v.shape or v.strided or v.element == "f16"):
        return f"a scalar that cannot be passed ({v.element})"
    return None


def _text(attr: Attribute) -> str:
    from io import StringIO

    from xdsl.printer import Printer

    out = StringIO()
    Printer(stream=out).print_attribute(attr)
    return out.getvalue()


def _element_name(t: Attribute) -> str | None:
    name = _text(t)
    return name if name in ELEMENT_TYPES else None


def value_type(t: Attribute) -> ValueType | None:
    """The ValueType of a builtin type, or None where the API can't pass it."""
    from xdsl.dialects.builtin import MemRefType, NoneAttr, StridedLayoutAttr, TensorType

    text = _text(t)
    if isinstance(t, TensorType | MemRefType):
        element = _element_name(t.element_type)
        if element is None:
            return None
        shape = tuple(DYNAMIC if s < 0 else s for s in t.get_shape())
        strided = False
        if isinstance(t, MemRefType):
            layout = t.layout
            if isinstance(layout, StridedLayoutAttr):
                strides = layout.get_strides()
                offset = layout.get_offset()
                strided = offset is None and all(s is None for s in strides)
                if not strided and not _is_identity_strides(shape, strides, offset):
                    return None
            elif not isinstance(layout, NoneAttr):
                return None
        return ValueType(
            "tensor" if isinstance(t, TensorType) else "memref",
            element,
            shape,
            strided,
            text,
        )
    element = _element_name(t)
    if element is None or element == "f16":  # an f16 scalar's C ABI isn't ctypes'
        return None
    return ValueType("scalar", element, (), False, text)


def _is_identity_strides(shape: tuple[int, ...], strides: Any, offset: Any) -> bool:
    if offset != 0:
        return False
    expected = 1
    for size, stride in zip(reversed(shape), reversed(list(strides))):
        if stride != expected:
            return False
        if size == DYNAMIC:
            return False
        expected *= size
    return True


def public_functions(module: Operation) -> list[Operation]:
    """The public, defined func.func ops directly in ``module``."""
    from xdsl.dialects import func

    out = []
    for op in module.regions[0].block.ops if module.regions else ():
        if (
            isinstance(op, func.FuncOp)
            and op.body.blocks
            and (op.sym_visibility is None or op.sym_visibility.data == "public")
        ):
            out.append(op)
    return out


def record_signatures(
    module: Operation, unsupported: dict[str, str] | None = None
) -> dict[str, Signature]:
    """Signatures of the public functions whose types the API can pass, and
    mark them for the C interface (and their tensor arguments read-only, so
    that compiled code never writes into a caller's array)."""
    from xdsl.dialects.builtin import BoolAttr, DictionaryAttr, TensorType, UnitAttr

    sigs: dict[str, Signature] = {}
    for op in public_functions(module):
        fn_type = op.function_type
        params = [value_type(t) for t in fn_type.inputs.data]
        results = [value_type(t) for t in fn_type.outputs.data]
        name = op.sym_name.data
        if any(p is None for p in params) or any(r is None for r in results):
            if unsupported is not None:
                bad = [
                    f"{what} {i} ('{_text(t)}')"
                    for what, types, vals in (
                        ("parameter", fn_type.inputs.data, params),
                        ("result", fn_type.outputs.data, results),
                    )
                    for i, (t, v) in enumerate(zip(types, vals))
                    if v is None
                ]
                unsupported[name] = (
                    "its " + ", ".join(bad) + " cannot be passed from Python (supported: ranked "
                    "tensors and identity- or fully-dynamic-strided memrefs of f16/f32/f64/i1/"
                    "i8/i16/i32/i64/index, and those scalars but f16)"
                )
            continue
        names = tuple(a.name_hint for a in op.body.blocks[0].args)
        sigs[name] = Signature(
            name, tuple(params), tuple(results), size_ties(op), names  # type: ignore[arg-type]
        )
        op.attributes["llvm.emit_c_interface"] = UnitAttr()
        arg_attrs = (
            list(op.arg_attrs.data)
            if op.arg_attrs is not None
            else [DictionaryAttr({}) for _ in fn_type.inputs.data]
        )
        for i, t in enumerate(fn_type.inputs.data):
            if isinstance(t, TensorType):
                d = dict(arg_attrs[i].data)
                d["bufferization.writable"] = BoolAttr.from_bool(False)
                arg_attrs[i] = DictionaryAttr(d)
        from xdsl.dialects.builtin import ArrayAttr

        op.arg_attrs = ArrayAttr(arg_attrs)
    return sigs


@cache
def descriptor_type(rank: int) -> type[ctypes.Structure]:
    """``{ptr allocated, ptr aligned, i64 offset, i64 sizes[R], i64 strides[R]}``
    (one class per rank)."""
    fields: list[tuple[str, Any]] = [
        ("allocated", ctypes.c_void_p),
        ("aligned", ctypes.c_void_p),
        ("offset", ctypes.c_int64),
    ]
    if rank:
        fields += [
            ("sizes", ctypes.c_int64 * rank),
            ("strides", ctypes.c_int64 * rank),
        ]
    return type(f"MemRefDescriptor{rank}", (ctypes.Structure,), {"_fields_": fields})


def ctype_of(v: ValueType) -> Any:
    if v.kind == "scalar":
        return ELEMENT_TYPES[v.element][1]
    return descriptor_type(len(v.shape))


def results_struct(results: tuple[ValueType, ...]) -> type[ctypes.Structure]:
    fields = [(f"r{i}", ctype_of(r)) for i, r in enumerate(results)]
    return type("Results", (ctypes.Structure,), {"_fields_": fields})


_LLVM_SCALARS = {"f32": "float", "f64": "double", "index": "i64"}


def ciface_llvm_type(sig: Signature) -> tuple[str, tuple[str, ...]]:
    """The LLVM return and parameter types of ``_mlir_ciface_<name>`` for
    ``sig``: a function of one scalar result returns it; one of arrays or of
    several results writes them through a pointer passed first."""

    def llvm(v: ValueType) -> str:
        return _LLVM_SCALARS.get(v.element, v.element) if v.kind == "scalar" else "ptr"

    params = tuple(llvm(p) for p in sig.params)
    if not sig.results:
        return "void", params
    if len(sig.results) == 1 and sig.results[0].kind == "scalar":
        return llvm(sig.results[0]), params
    return "void", ("ptr", *params)
