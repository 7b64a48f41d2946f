"""Buffer types for bufferization: tensor types to memref types, and the
layouts that views (subview) and function boundaries give, as upstream infers them."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, MemRefType, NoneAttr, StridedLayoutAttr
from xdsl.dialects.builtin import TensorType, UnrankedMemRefType, UnrankedTensorType
from xdsl.ir import Attribute

Layout = tuple[list[int], int]  # strides, offset; DYNAMIC_INDEX for unknown


def identity_memref(tensor: Attribute) -> Attribute:
    """The identity-layout buffer of a tensor type (``memref<*x..>`` if unranked)."""
    if isinstance(tensor, UnrankedTensorType):
        return UnrankedMemRefType.from_type(tensor.element_type)
    assert isinstance(tensor, TensorType)
    return MemRefType(tensor.element_type, tensor.get_shape())


def dynamic_layout_memref(tensor: Attribute) -> Attribute:
    """Upstream's fully dynamic layout, ``strided<[?, ?], offset: ?>``."""
    if isinstance(tensor, UnrankedTensorType):
        return UnrankedMemRefType.from_type(tensor.element_type)
    assert isinstance(tensor, TensorType | MemRefType)
    rank = len(tensor.get_shape())
    layout = strided([DYNAMIC_INDEX] * rank, DYNAMIC_INDEX)
    return MemRefType(tensor.element_type, tensor.get_shape(), layout)


def is_identity(memref: Attribute) -> bool:
    if not isinstance(memref, MemRefType):
        return False
    layout = memref.layout
    if isinstance(layout, NoneAttr):
        return True
    return False


def strided(strides: Sequence[int], offset: int) -> StridedLayoutAttr:
    """A strided layout from sizes that use ``DYNAMIC_INDEX`` for ``?``."""
    return StridedLayoutAttr(
        [None if s == DYNAMIC_INDEX else s for s in strides],
        None if offset == DYNAMIC_INDEX else offset,
    )


def _contiguous(shape: Sequence[int]) -> list[int]:
    strides: list[int] = []
    running = 1
    for size in reversed(shape):
        strides.insert(0, running)
        if running == DYNAMIC_INDEX or size == DYNAMIC_INDEX:
            running = DYNAMIC_INDEX
        else:
            running *= size
    return strides


def layout_of(memref: MemRefType) -> Layout:
    """Strides and offset of a memref, static where its type says so."""
    layout = memref.layout
    if isinstance(layout, StridedLayoutAttr):
        strides = [DYNAMIC_INDEX if s is None else s for s in layout.get_strides()]
        offset = layout.get_offset()
        return strides, DYNAMIC_INDEX if offset is None else offset
    return _contiguous(list(memref.get_shape())), 0


def _mul(a: int, b: int) -> int:
    return DYNAMIC_INDEX if DYNAMIC_INDEX in (a, b) else a * b


def subview_type(
    source: MemRefType,
    offsets: Sequence[int],
    sizes: Sequence[int],
    strides: Sequence[int],
    dropped: set[int],
) -> MemRefType:
    """``memref.subview``'s result type (upstream's ``inferRankReducedResultType``)."""
    src_strides, src_offset = layout_of(source)
    offset = src_offset
    for off, stride in zip(offsets, src_strides):
        offset = DYNAMIC_INDEX if DYNAMIC_INDEX in (offset, off, stride) else offset + off * stride
    new_strides = [_mul(s, step) for s, step in zip(src_strides, strides)]
    keep = [i for i in range(len(sizes)) if i not in dropped]
    layout = strided([new_strides[i] for i in keep], offset)
    return MemRefType(source.element_type, [sizes[i] for i in keep], layout)


def tensor_of(memref: Attribute) -> Attribute:
    if isinstance(memref, UnrankedMemRefType):
        return UnrankedTensorType(memref.element_type)
    assert isinstance(memref, MemRefType)
    return TensorType(memref.element_type, memref.get_shape())
