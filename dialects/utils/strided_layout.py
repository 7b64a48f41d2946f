"""Strided memref layouts as upstream MLIR reasons about them.

Upstream's ``getStridesAndOffset``, ``canonicalizeStridedLayout`` and the
text of the layout maps it prints in diagnostics, for the memref verifiers
(``subview``, ``transpose``, ``reshape``). Strides and offsets are lists of
ints with None where dynamic. xDSL's ``ShapedType.strides_for_shape``
multiplies dynamic sizes into the strides, so this module computes row-major
strides itself.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import AffineMapAttr, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineBinaryOpExpr, AffineBinaryOpKind, AffineConstantExpr
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap, AffineSymExpr

from mlkit.dialects.tensor.common import is_dynamic


def is_identity_map(layout: Attribute) -> bool:
    """An ``affine_map`` layout that is the identity (xDSL keeps it; upstream drops it)."""
    if not isinstance(layout, AffineMapAttr):
        return False
    return layout.data == AffineMap.identity(layout.data.num_dims)


def strides_and_offset(type_: MemRefType) -> tuple[list[int | None], int | None] | None:
    """Upstream's ``getStridesAndOffset`` (None for dynamic entries), or None
    where mlkit cannot tell: a one-result layout map, which may be strided."""
    layout = type_.layout
    if isinstance(layout, NoneAttr) or is_identity_map(layout):
        return canonical_strides(type_.get_shape()), 0
    strides = type_.get_strides()
    return (list(strides), type_.get_offset()) if strides is not None else None


def not_strided(type_: MemRefType) -> bool:
    """A layout map upstream cannot read strides from: more than one result."""
    layout = type_.layout
    return (
        isinstance(layout, AffineMapAttr)
        and not is_identity_map(layout)
        and len(layout.data.results) != 1
    )


def saturated_mul(a: int | None, b: int | None) -> int | None:
    """Upstream's ``SaturatedInteger`` product: 0 times anything is 0, else
    dynamic (None) when either factor is."""
    if a == 0 or b == 0:
        return 0
    return None if a is None or b is None or is_dynamic(a) or is_dynamic(b) else a * b


def _linear_form(expr: AffineExpr) -> tuple[dict[int, int | None], int | None] | None:
    """Coefficients of each dimension and the constant term of a linear
    layout expression, None where a symbol makes one dynamic; None when the
    expression is not linear in its dimensions."""
    if isinstance(expr, AffineConstantExpr):
        return {}, expr.value
    if isinstance(expr, AffineDimExpr):
        return {expr.position: 1}, 0
    if isinstance(expr, AffineSymExpr):
        return {}, None
    if not isinstance(expr, AffineBinaryOpExpr):
        return None
    lhs, rhs = _linear_form(expr.lhs), _linear_form(expr.rhs)
    if lhs is None or rhs is None:
        return None
    if expr.kind == AffineBinaryOpKind.Add:
        coeffs = dict(lhs[0])
        for dim, c in rhs[0].items():
            old = coeffs.get(dim, 0)
            coeffs[dim] = None if old is None or c is None else old + c
        const = None if lhs[1] is None or rhs[1] is None else lhs[1] + rhs[1]
        return coeffs, const
    if expr.kind != AffineBinaryOpKind.Mul or (lhs[0] and rhs[0]):
        return None  # floordiv, mod, ceildiv or a product of dimensions
    (terms, const), factor = (lhs, rhs[1]) if not rhs[0] else (rhs, lhs[1])
    if factor == 0:
        return {}, 0

    def scale(value: int | None) -> int | None:
        return None if value is None or factor is None else value * factor

    return {d: scale(c) for d, c in terms.items()}, (0 if const == 0 else scale(const))


def strided_form(type_: MemRefType) -> tuple[list[int | None], int | None] | None:
    """Upstream's ``getStridesAndOffset`` with None for dynamic values: from
    a strided layout, an identity map or a one-result linear map; None when
    the layout is not strided."""
    layout = type_.layout
    if isinstance(layout, NoneAttr) or is_identity_map(layout):
        return canonical_strides(type_.get_shape()), 0
    if isinstance(layout, StridedLayoutAttr):
        return list(layout.get_strides()), layout.get_offset()
    if not isinstance(layout, AffineMapAttr) or len(layout.data.results) != 1:
        return None
    form = _linear_form(layout.data.results[0])
    if form is None:
        return None
    coeffs, offset = form
    return [coeffs.get(d, 0) for d in range(layout.data.num_dims)], offset


def canonical_strides(shape: Sequence[int]) -> list[int | None]:
    """The strides of ``makeCanonicalStridedLayoutExpr``: row-major, dynamic
    outside the innermost dynamic size."""
    strides: list[int | None] = []
    running: int | None = 1
    for size in reversed(shape):
        strides.append(running)
        running = None if running is None or is_dynamic(size) else running * size
    return strides[::-1]


def _term_text(name: str, coeff: int | str, first: bool) -> str:
    """One term of a sum as MLIR prints it: ``d0``, ``-d0``, ``d0 * 4``,
    `` - d1 * 2``, ``d0 * s1``."""
    if isinstance(coeff, str):
        text = f"{name} * {coeff}"
    elif coeff < 0 and not first:
        return f" - {name}" if coeff == -1 else f" - {name} * {-coeff}"
    else:
        text = name if coeff == 1 else f"-{name}" if coeff == -1 else f"{name} * {coeff}"
    return text if first else f" + {text}"


def _strided_map_text(strides: Sequence[int | None], offset: int | None) -> str:
    """The simplified layout map upstream prints for strides and an offset
    (``makeStridedLinearLayoutMap`` then ``simplifyAffineExpr``): a linear
    map is flattened (dimensions, symbol, constant); with a dynamic stride
    it keeps the order it was built in, with a symbol offset moved after the
    first term and a constant offset last."""
    symbols = 1 if offset is None else 0
    coeffs: list[int | str] = []
    for stride in strides:
        if stride is None:
            coeffs.append(f"s{symbols}")
            symbols += 1
        else:
            coeffs.append(stride)
    terms = [(f"d{d}", c) for d, c in enumerate(coeffs) if c != 0]
    if offset is None:
        if all(isinstance(c, int) for c in coeffs):
            terms.append(("s0", 1))
        else:
            terms.insert(min(1, len(terms)), ("s0", 1))
    const = offset or 0
    parts = [_term_text(name, c, i == 0) for i, (name, c) in enumerate(terms)]
    if const or not parts:
        parts.append(str(const) if not parts else f" + {const}" if const > 0 else f" - {-const}")
    dims = ", ".join(f"d{d}" for d in range(len(strides)))
    syms = f"[{', '.join(f's{i}' for i in range(symbols))}]" if symbols else ""
    return f"affine_map<({dims}){syms} -> ({''.join(parts)})>"


def _canonical_layout(type_: MemRefType) -> tuple[object, str | None]:
    """Upstream's ``canonicalizeStridedLayout`` as a key to compare layouts
    by and the layout text it prints (None: no layout)."""
    layout = type_.layout
    if isinstance(layout, NoneAttr) or is_identity_map(layout):
        return ("identity",), None
    form = strided_form(type_)
    if form is None:
        return ("layout", layout), str(layout)
    strides, offset = form
    rank = type_.get_num_dims()
    if rank == 0 and offset == 0:
        return ("identity",), None
    if rank == 0 or (rank == 1 and strides == [1] and offset == 0):
        return ("layout", layout), str(layout)  # an identity map: left as it is
    dynamic = sum(s is None for s in strides)
    if offset == 0 and strides == canonical_strides(type_.get_shape()):
        # Upstream compares simplified expressions; with a dynamic stride they
        # only come out equal when one symbol follows two or more static terms.
        if dynamic == 0 or (dynamic == 1 and rank >= 3):
            return ("identity",), None
    text = _strided_map_text(strides, offset)
    return ("map", text), text


def canonical_type(type_: MemRefType) -> tuple[object, str]:
    """A memref type after ``canonicalizeStridedLayout``: a comparison key and its text."""
    key, layout = _canonical_layout(type_)
    plain = str(MemRefType(type_.element_type, type_.get_shape(), NoneAttr(), type_.memory_space))
    if layout is not None:
        head = str(MemRefType(type_.element_type, type_.get_shape()))[:-1]
        plain = f"{head}, {layout}{plain[len(head):]}"
    return (tuple(type_.get_shape()), type_.element_type, type_.memory_space, key), plain


def has_identity_layout(type_: MemRefType) -> bool:
    """MLIR's ``MemRefLayoutAttrInterface::isIdentity``: the layout's map is
    the identity, which a strided layout's is only at rank 1, stride 1, offset 0."""
    layout = type_.layout
    if isinstance(layout, NoneAttr) or is_identity_map(layout):
        return True
    if isinstance(layout, StridedLayoutAttr):
        return type_.get_num_dims() == 1 and list(layout.get_strides()) == [1] and (
            layout.get_offset() == 0)  # fmt: skip
    return False


def is_permutation(map_: AffineMap) -> bool:
    """MLIR's ``AffineMap::isPermutation``: each dimension once, no symbols."""
    dims = [r.position for r in map_.results if isinstance(r, AffineDimExpr)]
    return (
        map_.num_symbols == 0
        and map_.num_dims == len(map_.results) == len(dims)
        and sorted(dims) == list(range(map_.num_dims))
    )


def infer_transpose_type(source: MemRefType, permutation: AffineMap) -> MemRefType:
    """Upstream's ``inferTransposeResultType``: sizes and strides permuted,
    the offset kept, as a strided layout."""
    form = strided_form(source)
    assert form is not None
    strides, offset = form
    order = [r.position for r in permutation.results]  # type: ignore[attr-defined]
    shape = source.get_shape()
    return MemRefType(
        source.element_type,
        [shape[d] for d in order],
        StridedLayoutAttr([strides[d] for d in order], offset),
        source.memory_space,
    )
