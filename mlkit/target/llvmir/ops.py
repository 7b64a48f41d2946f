"""LLVM IR instructions for the llvm dialect's ops inside function bodies.

Each handler returns the instruction text after ``%N =``; the function
translator numbers results and blocks as LLVM does, so printed IR reads like
mlir-translate's. Constant ops (``llvm.mlir.constant``, ``undef``, ``poison``,
``zero``, ``addressof``) become constant operands, not instructions.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.dialects.builtin import ArrayAttr, DenseArrayBase, IntegerAttr, StringAttr, UnitAttr
from xdsl.dialects.builtin import VectorType
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import IRDLOperation

from mlkit.dialects import llvm
from mlkit.dialects.llvm.attrs import ATOMIC_BIN_OPS, ATOMIC_ORDERINGS, FASTMATH_FLAGS
from mlkit.target.llvmir.attrs import call_site_attrs, nth_param_attrs, symbol_name
from mlkit.target.llvmir.interface import FunctionContext
from mlkit.target.llvmir.types import ConstantBuilder, TranslationFailure, int_text, quote_bytes
from mlkit.target.llvmir.types import zero_value

Handler = Callable[[FunctionContext, Operation], str]

_ORDERING_NAMES = {v: k for k, v in ATOMIC_ORDERINGS.items()}
_BIN_OP_NAMES = {v: k.lstrip("_") for k, v in ATOMIC_BIN_OPS.items()}
_ICMP = "eq ne slt sle sgt sge ult ule ugt uge".split()
_FCMP = "false oeq ogt oge olt ole one ord ueq ugt uge ult ule une uno true".split()
# properties that carry no meaning of their own in LLVM IR
_STRUCTURAL = {"operandSegmentSizes", "op_bundle_sizes"}


def check_props(op: Operation, handled: set[str] | frozenset[str]) -> None:
    """Fail on a property the translation would silently drop."""
    for name in op.properties:
        if name not in handled and name not in _STRUCTURAL:
            raise TranslationFailure(f"property '{name}' is not supported by the translation")


def _int_prop(op: Operation, name: str, default: int = 0) -> int:
    value = op.properties.get(name)
    return value.value.data if isinstance(value, IntegerAttr) else default


def _flag(op: Operation, name: str) -> bool:
    return isinstance(op.properties.get(name), UnitAttr)


def fastmath(op: Operation) -> str:
    """`` fast`` or `` nnan ninf ...``; empty without flags."""
    attr = op.properties.get("fastmathFlags")
    flags = attr.flag_set if isinstance(attr, llvm.FastMathAttr) else frozenset()
    if flags == set(FASTMATH_FLAGS):
        return " fast"
    return "".join(f" {f}" for f in FASTMATH_FLAGS if f in flags)


def _overflow(op: Operation) -> str:
    value = _int_prop(op, "overflowFlags")
    return (" nuw" if value & 2 else "") + (" nsw" if value & 1 else "")


def _syncscope(op: Operation) -> str:
    scope = op.properties.get("syncscope")
    return (
        f' syncscope("{quote_bytes(scope.data.encode())}")' if isinstance(scope, StringAttr) else ""
    )


def _align(op: Operation) -> str:
    return f", align {_int_prop(op, 'alignment')}" if "alignment" in op.properties else ""


# -- arithmetic, comparisons, casts ------------------------------------------------


def _binary(keyword: str, flags: Callable[[Operation], str], handled: set[str]) -> Handler:
    def handle(t: FunctionContext, op: Operation) -> str:
        check_props(op, handled)
        lhs, rhs = op.operands
        return f"{keyword}{flags(op)} {t.typed(lhs)}, {t.ref(rhs)}"

    return handle


def _no_flags(op: Operation) -> str:
    return ""


def _exact(op: Operation) -> str:
    return " exact" if _flag(op, "isExact") else ""


def _disjoint(op: Operation) -> str:
    return " disjoint" if _flag(op, "isDisjoint") else ""


def _typed_operands(
    keyword: str,
    flags: Callable[[Operation], str],
    handled: set[str] | None,
    tail: Callable[[Operation], str] | None = None,
) -> Handler:
    """``keyword<flags> <type> %a, <type> %b, ...<tail>``; properties other
    than ``handled`` are rejected (None: not checked)."""

    def handle(t: FunctionContext, op: Operation) -> str:
        if handled is not None:
            check_props(op, handled)
        text = f"{keyword}{flags(op)} {', '.join(t.typed(v) for v in op.operands)}"
        return text + (f", {tail(op)}" if tail is not None else "")

    return handle


def _compare(keyword: str, predicates: list[str], handled: set[str]) -> Handler:
    def handle(t: FunctionContext, op: Operation) -> str:
        check_props(op, handled)
        lhs, rhs = op.operands
        predicate = predicates[_int_prop(op, "predicate")]
        return f"{keyword}{fastmath(op)} {predicate} {t.typed(lhs)}, {t.ref(rhs)}"

    return handle


def _cast(keyword: str, flags: Callable[[Operation], str], handled: set[str]) -> Handler:
    def handle(t: FunctionContext, op: Operation) -> str:
        check_props(op, handled)
        return f"{keyword}{flags(op)} {t.typed(op.operands[0])} to {t.ty(op.results[0].type)}"

    return handle


def _nneg(op: Operation) -> str:
    return " nneg" if _flag(op, "nonNeg") else ""


# -- memory and atomics ---------------------------------------------------------------

_ACCESS_PROPS = {"alignment", "volatile_", "nontemporal", "invariantGroup", "ordering", "syncscope"}


def _access_metadata(op: Operation) -> str:
    text = ""
    if _flag(op, "nontemporal"):
        text += ", !nontemporal !{i32 1}"
    if _flag(op, "invariant"):
        text += ", !invariant.load !{}"
    if _flag(op, "invariantGroup"):
        text += ", !invariant.group !{}"
    return text


def _atomic_words(op: Operation) -> tuple[str, str]:
    """(`` atomic``, `` syncscope("s") ordering``) of a load or store, or empties."""
    ordering = _int_prop(op, "ordering")
    if not ordering:
        return "", ""
    return " atomic", f"{_syncscope(op)} {_ORDERING_NAMES[ordering]}"


def _volatile(op: Operation) -> str:
    return " volatile" if _flag(op, "volatile_") else ""


def _load(t: FunctionContext, op: Operation) -> str:
    check_props(op, _ACCESS_PROPS | {"invariant"})
    atomic, ordering = _atomic_words(op)
    return (
        f"load{atomic}{_volatile(op)} {t.ty(op.results[0].type)}, {t.typed(op.operands[0])}"
        f"{ordering}{_align(op)}{_access_metadata(op)}"
    )


def _store(t: FunctionContext, op: Operation) -> str:
    check_props(op, _ACCESS_PROPS)
    atomic, ordering = _atomic_words(op)
    value, addr = op.operands
    return (
        f"store{atomic}{_volatile(op)} {t.typed(value)}, {t.typed(addr)}"
        f"{ordering}{_align(op)}{_access_metadata(op)}"
    )


def _alloca(t: FunctionContext, op: Operation) -> str:
    check_props(op, {"alignment", "elem_type", "inalloca"})
    inalloca = " inalloca" if _flag(op, "inalloca") else ""
    result = op.results[0].type
    space = result.address_space if isinstance(result, llvm.LLVMPointerType) else 0
    elem = op.properties["elem_type"]
    text = f"alloca{inalloca} {t.ty(elem)}, {t.typed(op.operands[0])}{_align(op)}"
    return text + (f", addrspace({space})" if space else "")


def _gep(t: FunctionContext, op: Operation) -> str:
    assert isinstance(op, llvm.GEPOp)
    return f"getelementptr{gep_flags(op)} {', '.join(gep_operands(op, t.ty, t.typed))}"


GEP_PROPS = frozenset({"rawConstantIndices", "elem_type", "noWrapFlags"})


def gep_flags(op: llvm.GEPOp) -> str:
    """`` inbounds``, `` nusw``, `` nuw`` of a GEP (checking its properties)."""
    check_props(op, GEP_PROPS)
    flags = _int_prop(op, "noWrapFlags")
    words = " inbounds" if flags & 3 == 3 else (" nusw" if flags & 2 else "")
    return words + (" nuw" if flags & 4 else "")


def gep_operands(
    op: llvm.GEPOp, ty: Callable[[Attribute], str], typed: Callable[[SSAValue], str]
) -> list[str]:
    """The element type, base and indices of a GEP (constant indices are ``i32``)."""
    indices = [f"i32 {i}" if isinstance(i, int) else typed(i) for i in op.indices]
    return [ty(op.elem_type), typed(op.base), *indices]


def _atomicrmw(t: FunctionContext, op: Operation) -> str:
    check_props(op, {"bin_op", "ordering", "syncscope", "alignment", "volatile_"})
    ptr, val = op.operands
    return (
        f"atomicrmw{_volatile(op)} {_BIN_OP_NAMES[_int_prop(op, 'bin_op')]} {t.typed(ptr)}, "
        f"{t.typed(val)}{_syncscope(op)} {_ORDERING_NAMES[_int_prop(op, 'ordering')]}{_align(op)}"
    )


def _cmpxchg(t: FunctionContext, op: Operation) -> str:
    check_props(
        op, {"success_ordering", "failure_ordering", "syncscope", "alignment", "weak", "volatile_"}
    )
    ptr, cmp, val = op.operands
    weak = " weak" if _flag(op, "weak") else ""
    success = _ORDERING_NAMES[_int_prop(op, "success_ordering")]
    failure = _ORDERING_NAMES[_int_prop(op, "failure_ordering")]
    return (
        f"cmpxchg{weak}{_volatile(op)} {t.typed(ptr)}, {t.typed(cmp)}, {t.typed(val)}"
        f"{_syncscope(op)} {success} {failure}{_align(op)}"
    )


def _fence(t: FunctionContext, op: Operation) -> str:
    check_props(op, {"ordering", "syncscope"})
    return f"fence{_syncscope(op)} {_ORDERING_NAMES[_int_prop(op, 'ordering')]}"


# -- aggregates and vectors ---------------------------------------------------------------


def position(op: Operation) -> list[int]:
    """The ``position`` of an ``extractvalue``/``insertvalue``."""
    value = op.properties["position"]
    assert isinstance(value, DenseArrayBase)
    return [int(i) for i in value.iter_values()]


def _position_text(op: Operation) -> str:
    return ", ".join(str(i) for i in position(op))


def _shufflevector(t: FunctionContext, op: Operation) -> str:
    check_props(op, {"mask"})
    v1, v2 = op.operands
    mask = op.properties["mask"]
    assert isinstance(mask, DenseArrayBase)
    entries = [int(i) for i in mask.iter_values()]
    scalable = "vscale x " if any(op.results[0].type.get_scalable_dims()) else ""  # type: ignore[attr-defined]
    if scalable:
        if any(entries):
            raise TranslationFailure("a scalable shuffle mask must be all zeros")
        mask_text = "zeroinitializer"
    else:
        mask_text = "<" + ", ".join(f"i32 {'poison' if i < 0 else i}" for i in entries) + ">"
    return (
        f"shufflevector {t.typed(v1)}, {t.typed(v2)}, <{scalable}{len(entries)} x i32> {mask_text}"
    )


# -- control flow and calls ------------------------------------------------------------------


def _return(t: FunctionContext, op: Operation) -> str:
    return f"ret {t.typed(op.operands[0])}" if op.operands else "ret void"


def _unreachable(t: FunctionContext, op: Operation) -> str:
    return "unreachable"


def _weights(op: Operation) -> str:
    weights = op.properties.get("branch_weights")
    if not isinstance(weights, DenseArrayBase):
        return ""
    values = ", ".join(f"i32 {int(w)}" for w in weights.iter_values())
    return f', !prof !{{!"branch_weights", {values}}}'


def _br(t: FunctionContext, op: Operation) -> str:
    check_props(op, set())
    return f"br {t.successor(op, 0)}"


def _cond_br(t: FunctionContext, op: Operation) -> str:
    check_props(op, {"branch_weights"})
    return f"br {t.typed(op.operands[0])}, {t.successor(op, 0)}, {t.successor(op, 1)}{_weights(op)}"


def _switch(t: FunctionContext, op: Operation) -> str:
    assert isinstance(op, llvm.SwitchOp)
    check_props(op, {"case_values", "case_operand_segments", "branch_weights"})
    width = op.value.type.width.data  # type: ignore[attr-defined]
    values = list(op.case_values.get_values()) if op.case_values is not None else []
    type_text = t.ty(op.value.type)
    cases = "".join(
        f"\n    {type_text} {int_text(int(v), width)}, {t.successor(op, i + 1)}"
        for i, v in enumerate(values)
    )
    return f"switch {t.typed(op.value)}, {t.successor(op, 0)} [{cases}\n  ]{_weights(op)}"


def _bundles(t: FunctionContext, op: Operation) -> str:
    sizes = op.properties.get("op_bundle_sizes")
    counts = [int(s) for s in sizes.iter_values()] if isinstance(sizes, DenseArrayBase) else []
    if not counts:
        return ""
    tags = op.properties.get("op_bundle_tags")
    names = (
        [a.data for a in tags.data if isinstance(a, StringAttr)]
        if isinstance(tags, ArrayAttr)
        else []
    )
    if len(names) != len(counts):
        raise TranslationFailure("expected one 'op_bundle_tags' entry per operand bundle")
    operands = list(op.operands)[len(op.operands) - sum(counts) :]
    parts, start = [], 0
    for name, count in zip(names, counts):
        args = ", ".join(t.typed(v) for v in operands[start : start + count])
        parts.append(f'"{quote_bytes(name.encode())}"({args})')
        start += count
    return " [ " + ", ".join(parts) + " ]"


def _call_args(t: FunctionContext, op: Operation, args: Sequence[SSAValue]) -> str:
    arg_attrs = op.properties.get("arg_attrs")
    parts = []
    for i, arg in enumerate(args):
        words = nth_param_attrs(arg_attrs, i, t.types)
        parts.append(" ".join([t.ty(arg.type), *words, t.ref(arg)]))
    return ", ".join(parts)


_CALL_PROPS = {
    "callee", "var_callee_type", "CConv", "TailCallKind", "fastmathFlags", "op_bundle_tags",
    "arg_attrs", "res_attrs", "branch_weights", "convergent", "no_unwind", "will_return",
    "no_inline", "always_inline", "inline_hint",
}  # fmt: skip


def _call(t: FunctionContext, op: Operation) -> str:
    assert isinstance(op, llvm.CallOp)
    check_props(op, _CALL_PROPS)
    count = len(op.callee_operands)
    args = list(op.operands[:count])
    if op.callee is None:
        callee = t.ref(args.pop(0))
        fn_type = op.var_callee_type
    else:
        callee = symbol_name(op.callee)
        fn_type = op.var_callee_type or t.module.variadic_callee_type(op.callee)
    result = t.ty(op.results[0].type) if op.results else "void"
    words = []
    kind = op.TailCallKind.kind.data  # type: ignore[union-attr]
    if kind != "none":
        words.append(kind)
    words.append("call" + fastmath(op))
    cconv = op.CConv.cconv.data  # type: ignore[union-attr]
    if cconv != "ccc":
        words.append(cconv)
    words += nth_param_attrs(op.properties.get("res_attrs"), 0, t.types)
    words.append(f"{result} {t.types.signature(fn_type)}" if fn_type is not None else result)
    words.append(f"{callee}({_call_args(t, op, args)})")
    words += call_site_attrs(op)
    return " ".join(words) + _bundles(t, op) + _weights(op)


def _call_intrinsic(t: FunctionContext, op: Operation) -> str:
    check_props(op, {"intrin", "fastmathFlags", "op_bundle_tags", "arg_attrs", "res_attrs"})
    name = op.properties["intrin"]
    assert isinstance(name, StringAttr)
    count = len(op.operands) - _bundle_operand_count(op)
    args = list(op.operands[:count])
    result = op.results[0].type if op.results else None
    callee = t.module.intrinsics.declare(name.data, result, [a.type for a in args], exact=True)
    res = " ".join([*nth_param_attrs(op.properties.get("res_attrs"), 0, t.types),
                    t.ty(result) if result is not None else "void"])  # fmt: skip
    return f"call{fastmath(op)} {res} {callee}({_call_args(t, op, args)}){_bundles(t, op)}"


def _bundle_operand_count(op: Operation) -> int:
    sizes = op.properties.get("op_bundle_sizes")
    return sum(int(s) for s in sizes.iter_values()) if isinstance(sizes, DenseArrayBase) else 0


_INTRINSIC_PROPS = {"fastmathFlags", "arg_attrs", "res_attrs"}


def _overloaded_types(name: str, op: Operation) -> list[Attribute]:
    """The types an intrinsic's name is mangled with (LLVM re-mangles any
    name that is off, so this only has to be right for the common cases)."""
    types = [v.type for v in op.operands]
    if name in ("memcpy", "is.fpclass", "sincos"):
        return types
    if name == "memset":
        return [types[0], types[2]]
    if name.startswith("vector.reduce."):
        return [next(t for t in types if isinstance(t, VectorType))]
    if name == "powi":
        return [op.results[0].type, types[1]]
    return [op.results[0].type] if op.results else types


def intrinsic_op(t: FunctionContext, op: Operation) -> str:
    """An ``llvm.intr.*`` op as a call of its intrinsic; integer properties
    (``isVolatile``, ``is_zero_poison``, ...) are its trailing immediate arguments."""
    name = op.name.removeprefix("llvm.intr.")
    definition = op.get_irdl_definition() if isinstance(op, IRDLOperation) else None
    immediates = [
        value
        for key in (definition.properties if definition is not None else op.properties)
        if key not in _INTRINSIC_PROPS and isinstance(value := op.properties.get(key), IntegerAttr)
    ]
    check_props(op, _INTRINSIC_PROPS | {k for k, v in op.properties.items() if v in immediates})
    result = op.results[0].type if op.results else None
    params = [*(v.type for v in op.operands), *(v.type for v in immediates)]
    callee = t.module.intrinsics.declare(name, result, params, overloaded=_overloaded_types(name, op))
    args = _call_args(t, op, op.operands)
    for value in immediates:
        args += f", {t.ty(value.type)} {int_text(value.value.data, value.type.width.data)}"  # type: ignore[union-attr]
    res = " ".join([*nth_param_attrs(op.properties.get("res_attrs"), 0, t.types),
                    t.ty(result) if result is not None else "void"])  # fmt: skip
    return f"call{fastmath(op)} {res} {callee}({args.removeprefix(', ')})"


# -- constants -----------------------------------------------------------------------------------


def constant_text(constants: ConstantBuilder, op: Operation) -> str:
    """The constant an ``llvm.mlir.*`` constant op stands for (without its type)."""
    result = op.results[0].type
    if isinstance(op, llvm.ConstantOp):
        check_props(op, {"value"})
        return constants.value(op.value, result)
    if isinstance(op, llvm.AddressOfOp):
        check_props(op, {"global_name"})
        return symbol_name(op.global_name)  # type: ignore[arg-type]
    return {llvm.UndefOp: "undef", llvm.PoisonOp: "poison"}.get(type(op)) or zero_value(result)


CONSTANT_OPS = (llvm.ConstantOp, llvm.UndefOp, llvm.PoisonOp, llvm.ZeroOp, llvm.AddressOfOp)


def _table() -> dict[str, Handler]:
    table: dict[str, Handler] = {}
    for name in ("add", "sub", "mul", "shl"):
        table[f"llvm.{name}"] = _binary(name, _overflow, {"overflowFlags"})
    for name in ("udiv", "sdiv", "lshr", "ashr"):
        table[f"llvm.{name}"] = _binary(name, _exact, {"isExact"})
    for name in ("urem", "srem", "and", "xor"):
        table[f"llvm.{name}"] = _binary(name, _no_flags, set())
    table["llvm.or"] = _binary("or", _disjoint, {"isDisjoint"})
    for name in ("fadd", "fsub", "fmul", "fdiv", "frem"):
        table[f"llvm.{name}"] = _binary(name, fastmath, {"fastmathFlags"})
    table["llvm.trunc"] = _cast("trunc", _overflow, {"overflowFlags"})
    for name in ("zext", "uitofp"):
        table[f"llvm.{name}"] = _cast(name, _nneg, {"nonNeg"})
    for name in ("sext", "sitofp", "fptosi", "fptoui", "bitcast", "ptrtoint", "inttoptr",
                 "addrspacecast"):  # fmt: skip
        table[f"llvm.{name}"] = _cast(name, _no_flags, set())
    for name in ("fpext", "fptrunc"):
        table[f"llvm.{name}"] = _cast(name, fastmath, {"fastmathFlags"})
    for name in ("fneg", "select"):
        table[f"llvm.{name}"] = _typed_operands(name, fastmath, {"fastmathFlags"})
    for name in ("extractvalue", "insertvalue"):
        table[f"llvm.{name}"] = _typed_operands(name, _no_flags, {"position"}, _position_text)
    for name in ("extractelement", "insertelement"):
        table[f"llvm.{name}"] = _typed_operands(name, _no_flags, None)
    table["llvm.icmp"] = _compare("icmp", _ICMP, {"predicate"})
    table["llvm.fcmp"] = _compare("fcmp", _FCMP, {"predicate", "fastmathFlags"})
    table.update({
        "llvm.load": _load, "llvm.store": _store, "llvm.alloca": _alloca,
        "llvm.getelementptr": _gep, "llvm.atomicrmw": _atomicrmw, "llvm.cmpxchg": _cmpxchg,
        "llvm.fence": _fence, "llvm.shufflevector": _shufflevector,
        "llvm.return": _return, "llvm.unreachable": _unreachable, "llvm.br": _br,
        "llvm.cond_br": _cond_br, "llvm.switch": _switch, "llvm.call": _call,
        "llvm.call_intrinsic": _call_intrinsic,
    })  # fmt: skip
    return table


INSTRUCTIONS: dict[str, Handler] = _table()
