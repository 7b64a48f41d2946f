"""The LLVM intrinsics a translated module calls, each declared once per
signature, under the name LLVM mangles for its overloaded types
(``llvm.memcpy.p0.p0.i64``, ``llvm.fma.v4f32``)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute

from mlkit.dialects import llvm
from mlkit.target.llvmir.types import TypeTable, identifier

_MANGLED_FLOATS = {"half": "f16", "bfloat": "bf16", "float": "f32", "double": "f64",
                   "x86_fp80": "f80", "fp128": "f128", "ppc_fp128": "ppcf128"}  # fmt: skip


class IntrinsicTable:
    """The intrinsics used so far and their declarations; a name the module
    itself defines (``declared``) is not declared again."""

    def __init__(self, types: TypeTable, declared: Mapping[str, object]) -> None:
        self.types = types
        self.declared = declared
        self._declarations: dict[str, str] = {}
        self._names: dict[tuple[str, str], str] = {}

    def declare(
        self,
        name: str,
        result: Attribute | None,
        params: Sequence[Attribute],
        *,
        overloaded: Sequence[Attribute] = (),
        exact: bool = False,
    ) -> str:
        """``@llvm.<name>.<types>``, declared once per signature. With ``exact``
        the given name is kept for its first signature; LLVM itself re-mangles
        the name of an overloaded intrinsic to match its type."""
        full = name if name.startswith("llvm.") else f"llvm.{name}"
        result_text = self.types.spell(result) if result is not None else "void"
        params_text = ", ".join(self.types.spell(p) for p in params)
        key = (full, f"{result_text} ({params_text})")
        if key in self._names:
            return self._names[key]
        if exact:
            used = {n for (base, _), n in self._names.items() if base == full}
            mangled = full if identifier("@", full) not in used else full + self._mangle([*params])
        else:
            mangled = full + self._mangle(overloaded)
            if identifier("@", mangled) in self._names.values():
                mangled = full + self._mangle(params)  # another signature took the name
        symbol = identifier("@", mangled)
        self._names[key] = symbol
        if mangled not in self.declared:
            self._declarations[mangled] = f"declare {result_text} {symbol}({params_text})"
        return symbol

    def declarations(self) -> list[str]:
        """The ``declare`` lines, in the order the intrinsics were first used."""
        return list(self._declarations.values())

    def _mangle(self, types: Sequence[Attribute]) -> str:
        return "".join("." + self._mangle_one(t) for t in types)

    def _mangle_one(self, type: Attribute) -> str:
        if isinstance(type, llvm.LLVMPointerType):
            return f"p{type.address_space}"
        if isinstance(type, VectorType):
            prefix = "nxv" if any(type.get_scalable_dims()) else "v"
            return f"{prefix}{type.get_shape()[0]}{self._mangle_one(type.element_type)}"
        if isinstance(type, llvm.LLVMArrayType):
            return f"a{type.size.data}{self._mangle_one(type.type)}"
        spelled = self.types.spell(type)
        return _MANGLED_FLOATS.get(spelled, spelled.replace(" ", "").replace("%", ""))
