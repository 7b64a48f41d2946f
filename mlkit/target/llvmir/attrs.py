"""LLVM IR attributes of functions, parameters and call sites, and the
words around a global, from the properties of mlkit's LLVM dialect ops.

Upstream MLIR names parameter attributes ``llvm.<LLVM attribute name>``; a
unit value is a bare keyword, a type or integer value is the keyword's
argument. Function properties map to LLVM's enum or string attributes.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, IntegerAttr, StringAttr, SymbolRefAttr
from xdsl.dialects.builtin import UnitAttr
from xdsl.ir import Attribute, Operation, TypeAttribute

from mlkit.dialects.llvm import ConstantRangeAttr
from mlkit.target.llvmir.types import TranslationFailure, TypeTable, identifier, quote_bytes

# LLVM's enum attribute keywords a ``passthrough`` entry may name (Attributes.td)
ENUM_FN_ATTRS = frozenset(
    """alignstack allocsize alwaysinline builtin cold convergent disable_sanitizer_instrumentation
    fn_ret_thunk_extern hot hybrid_patchable inlinehint jumptable minsize mustprogress naked
    nobuiltin nocallback nocf_check noduplicate nofree noimplicitfloat noinline nomerge
    noprofile norecurse noredzone noreturn nosanitize_bounds nosanitize_coverage nosync
    nounwind null_pointer_is_valid optdebug optforfuzzing optnone optsize presplitcoroutine
    readnone readonly returns_twice safestack sanitize_address sanitize_hwaddress
    sanitize_memory sanitize_memtag sanitize_thread shadowcallstack skipprofile speculatable
    speculative_load_hardening ssp sspreq sspstrong strictfp uwtable willreturn writeonly
    mustprogress""".split()
)

# unit properties of llvm.func and llvm.call that are LLVM enum attributes
UNIT_FN_ATTRS = {
    "no_inline": "noinline",
    "always_inline": "alwaysinline",
    "inline_hint": "inlinehint",
    "optimize_none": "optnone",
    "convergent": "convergent",
    "no_unwind": "nounwind",
    "will_return": "willreturn",
}
# llvm.func properties that become string attributes ``"name"="value"``
STRING_FN_ATTRS = {
    "target_cpu": "target-cpu",
    "tune_cpu": "tune-cpu",
    "reciprocal_estimates": "reciprocal-estimates",
    "prefer_vector_width": "prefer-vector-width",
    "fp_contract": "fp-contract",
    "instrument_function_entry": "instrument-function-entry",
    "instrument_function_exit": "instrument-function-exit",
}
BOOL_FN_ATTRS = {"no_signed_zeros_fp_math": "no-signed-zeros-fp-math"}
# Properties for attributes LLVM 22 no longer has (the fp-math options moved to
# instruction flags, denormal modes to ``denormal_fpenv``): upstream's
# translation drops them, and so does this one.
DROPPED_FN_PROPS = frozenset(
    "unsafe_fp_math no_infs_fp_math no_nans_fp_math approx_func_fp_math no_builtins "
    "denormal_fp_math denormal_fp_math_f32".split()
)
# parameter attributes that are written with a type or an integer argument
_TYPED_PARAM_ATTRS = {"byval", "byref", "sret", "inalloca", "preallocated", "elementtype"}
_INT_PARAM_ATTRS = {"alignstack", "dereferenceable", "dereferenceable_or_null"}
_UNIT_PARAM_ATTRS = frozenset(
    """noalias nonnull readonly readnone writeonly noundef inreg nest nofree returned signext
    zeroext swiftself swiftasync swifterror immarg allocalign allocptr writable dead_on_unwind
    dead_on_return noext""".split()
)


def _string(value: str) -> str:
    return f'"{quote_bytes(value.encode())}"'


def param_attrs(attrs: Attribute | None, types: TypeTable) -> list[str]:
    """The LLVM parameter (or return) attributes of one ``{llvm.x ...}`` dictionary;
    entries of other dialects are left out, as upstream does."""
    if not isinstance(attrs, DictionaryAttr):
        return []
    words: list[str] = []
    for key, value in attrs.data.items():
        if not key.startswith("llvm."):
            continue
        name = key.removeprefix("llvm.")
        if name == "nocapture" and isinstance(value, UnitAttr):
            words.append("captures(none)")
        elif name in _UNIT_PARAM_ATTRS and isinstance(value, UnitAttr):
            words.append(name)
        elif name in _TYPED_PARAM_ATTRS and isinstance(value, TypeAttribute):
            words.append(f"{name}({types.spell(value)})")
        elif name == "align" and isinstance(value, IntegerAttr):
            words.append(f"align {value.value.data}")
        elif name in _INT_PARAM_ATTRS and isinstance(value, IntegerAttr):
            words.append(f"{name}({value.value.data})")
        elif name == "range" and isinstance(value, ConstantRangeAttr):
            words.append(
                f"range({types.spell(value.type)} {value.lower.value.data}, {value.upper.value.data})"
            )
        else:
            raise TranslationFailure(f"unsupported parameter attribute '{key} = {value}'")
    return words


def nth_param_attrs(array: Attribute | None, index: int, types: TypeTable) -> list[str]:
    if isinstance(array, ArrayAttr) and index < len(array.data):
        return param_attrs(array.data[index], types)
    return []


def _passthrough(entries: Attribute) -> list[str]:
    if not isinstance(entries, ArrayAttr):
        raise TranslationFailure("'passthrough' must be an array")
    words: list[str] = []
    for entry in entries.data:
        if isinstance(entry, StringAttr):
            name = entry.data
            words.append(name if name in ENUM_FN_ATTRS else _string(name))
        elif (
            isinstance(entry, ArrayAttr)
            and len(entry.data) == 2
            and all(isinstance(e, StringAttr) for e in entry.data)
        ):
            key, value = (e.data for e in entry.data)  # type: ignore[union-attr]
            if key in ENUM_FN_ATTRS and value.isdigit():
                words.append(f"{key}({value})")
            else:
                words.append(f"{_string(key)}={_string(value)}")
        else:
            raise TranslationFailure(f"unsupported 'passthrough' entry '{entry}'")
    return words


def _prop(op: Operation, name: str) -> Attribute | None:
    return op.properties.get(name)


def function_attrs(op: Operation) -> list[str]:
    """LLVM function attributes of an ``llvm.func``."""
    words: list[str] = []
    for prop, word in UNIT_FN_ATTRS.items():
        if _prop(op, prop) is not None:
            words.append(word)
    if (entries := _prop(op, "passthrough")) is not None:
        words += _passthrough(entries)
    for prop, key in STRING_FN_ATTRS.items():
        value = _prop(op, prop)
        if isinstance(value, StringAttr):
            words.append(f"{_string(key)}={_string(value.data)}")
        elif isinstance(value, IntegerAttr):
            words.append(f"{_string(key)}={_string(str(value.value.data))}")
        elif value is not None:
            raise TranslationFailure(f"unsupported value '{value}' of '{prop}'")
    if isinstance(flag := _prop(op, "use_sample_profile"), IntegerAttr) and flag.value.data:
        words.append(_string("use-sample-profile"))
    for prop, key in BOOL_FN_ATTRS.items():
        value = _prop(op, prop)
        if value is not None:
            flag = isinstance(value, UnitAttr) or (
                isinstance(value, IntegerAttr) and bool(value.value.data)
            )
            words.append(f"{_string(key)}={_string('true' if flag else 'false')}")
    return words


def call_site_attrs(op: Operation) -> list[str]:
    """Function attributes written on an ``llvm.call``."""
    return [word for prop, word in UNIT_FN_ATTRS.items() if _prop(op, prop) is not None]


FUNC_HANDLED_PROPS = frozenset(
    {
        "sym_name", "function_type", "linkage", "CConv", "visibility_", "unnamed_addr",
        "arg_attrs", "res_attrs", "sym_visibility", "dso_local", "section", "alignment",
        "garbageCollector", "personality", "passthrough", "function_entry_count",
        "use_sample_profile", *UNIT_FN_ATTRS, *STRING_FN_ATTRS, *BOOL_FN_ATTRS, *DROPPED_FN_PROPS,
    }
)  # fmt: skip


def function_trailer(op: Operation, symbol: Callable[[SymbolRefAttr], str]) -> list[str]:
    """What follows a function's attributes: section, align, gc, personality."""
    words: list[str] = []
    if isinstance(section := _prop(op, "section"), StringAttr):
        words.append(f"section {_string(section.data)}")
    if isinstance(align := _prop(op, "alignment"), IntegerAttr):
        words.append(f"align {align.value.data}")
    if isinstance(gc := _prop(op, "garbageCollector"), StringAttr):
        words.append(f"gc {_string(gc.data)}")
    if isinstance(personality := _prop(op, "personality"), SymbolRefAttr):
        words.append(f"personality ptr {symbol(personality)}")
    if isinstance(count := _prop(op, "function_entry_count"), IntegerAttr):
        words.append(f'!prof !{{!"function_entry_count", i64 {count.value.data}}}')
    return words


def symbol_name(ref: SymbolRefAttr) -> str:
    return identifier("@", ref.root_reference.data)
