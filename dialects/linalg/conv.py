"""linalg's convolutions and poolings, with ``strides`` and ``dilations``.

Each op declares its loops by name and, per operand, the loop expressions it is
indexed by; a window dimension ``(o, k)`` reads ``o * stride + k * dilation``.
``strides`` and ``dilations`` are optional properties defaulting to 1, a
``dense<..> : tensor<Nxi64>`` (or ``vector<Nxi64>``) as upstream stores them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import DenseIntElementsAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.dialects.builtin import VectorType, i64
from xdsl.ir import Attribute
from xdsl.ir.affine import AffineDimExpr, AffineExpr, AffineMap
from xdsl.irdl import irdl_op_definition, opt_prop_def
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.linalg.attrs import BinaryFn, IteratorType
from mlkit.dialects.linalg.body import BodyBuilder
from mlkit.dialects.linalg.contraction import multiply_accumulate
from mlkit.dialects.linalg.named_base import NamedStructuredOp

__all__ = [
    "CONV_OPS",
    "Conv1DNwcWcfOp",
    "Conv2DNchwFchwOp",
    "Conv2DNhwcHwcfOp",
    "Conv3DNdhwcDhwcfOp",
    "DepthwiseConv2DNhwcHwcOp",
    "PoolingNchwMaxOp",
    "PoolingNhwcMaxOp",
    "PoolingNhwcMinOp",
    "PoolingNhwcSumOp",
]

P, R = IteratorType.PARALLEL, IteratorType.REDUCTION

# An operand index: a loop name, or a window (output loop, kernel loop) pair.
Index = str | tuple[str, str]


class WindowedOp(NamedStructuredOp):
    """A convolution or pooling: loops named in ``LOOPS``, operand indices in
    ``OPERANDS`` (input, filter, output), windows strided and dilated."""

    NUM_REGION_ARGS: ClassVar[int | None] = 3

    LOOPS: ClassVar[tuple[str, ...]]
    REDUCTIONS: ClassVar[frozenset[str]]
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]]

    strides = opt_prop_def(DenseIntElementsAttr)
    dilations = opt_prop_def(DenseIntElementsAttr)

    @classmethod
    def num_windows(cls) -> int:
        return sum(isinstance(i, tuple) for i in cls.OPERANDS[0])

    def _values(self, name: str) -> list[int]:
        attr = self.properties.get(name)
        if isinstance(attr, DenseIntOrFPElementsAttr):
            values = [int(v) for v in attr.get_values()]
            if len(values) == 1:
                values *= self.num_windows()
            return values
        return [1] * self.num_windows()

    def get_default_indexing_maps(self) -> Sequence[AffineMap]:
        dims = {name: AffineDimExpr(i) for i, name in enumerate(self.LOOPS)}
        strides, dilations = self._values("strides"), self._values("dilations")
        maps: list[AffineMap] = []
        for indices in self.OPERANDS:
            window = 0
            exprs: list[AffineExpr] = []
            for index in indices:
                if isinstance(index, str):
                    exprs.append(dims[index])
                    continue
                out, kernel = index
                exprs.append(
                    dims[out] * strides[window] + dims[kernel] * dilations[window]
                )
                window += 1
            maps.append(AffineMap(len(self.LOOPS), 0, tuple(exprs)))
        return maps

    def iterator_kinds(self) -> list[IteratorType]:
        return [R if name in self.REDUCTIONS else P for name in self.LOOPS]

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        multiply_accumulate(b)

    def verify_(self) -> None:
        # ODS checks these attributes before any interface runs.
        n = self.num_windows()
        for name in ("strides", "dilations"):
            attr = self.properties.get(name)
            if attr is None:
                continue
            t = attr.type if isinstance(attr, DenseIntOrFPElementsAttr) else None
            # upstream's RankedI64ElementsAttr: any ranked shaped type (JAX's and
            # IREE's output stores them as vectors), signless i64
            ok = (
                isinstance(t, TensorType | VectorType)
                and list(t.get_shape()) == [n]
                and t.get_element_type() == i64
            )
            if not ok:
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: 64-bit signless int "
                    f"elements attribute of shape [{n}]"
                )
        super().verify_()


@irdl_op_definition
class Conv1DNwcWcfOp(WindowedOp):
    name = "linalg.conv_1d_nwc_wcf"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "ow", "f", "kw", "c")
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"kw", "c"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", ("ow", "kw"), "c"),
        ("kw", "c", "f"),
        ("n", "ow", "f"),
    )


@irdl_op_definition
class Conv2DNhwcHwcfOp(WindowedOp):
    name = "linalg.conv_2d_nhwc_hwcf"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "oh", "ow", "f", "kh", "kw", "c")
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"kh", "kw", "c"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", ("oh", "kh"), ("ow", "kw"), "c"),
        ("kh", "kw", "c", "f"),
        ("n", "oh", "ow", "f"),
    )


@irdl_op_definition
class Conv2DNchwFchwOp(WindowedOp):
    name = "linalg.conv_2d_nchw_fchw"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "f", "oh", "ow", "c", "kh", "kw")
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"c", "kh", "kw"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", "c", ("oh", "kh"), ("ow", "kw")),
        ("f", "c", "kh", "kw"),
        ("n", "f", "oh", "ow"),
    )


@irdl_op_definition
class Conv3DNdhwcDhwcfOp(WindowedOp):
    name = "linalg.conv_3d_ndhwc_dhwcf"
    LOOPS: ClassVar[tuple[str, ...]] = (
        "n",
        "od",
        "oh",
        "ow",
        "f",
        "kd",
        "kh",
        "kw",
        "c",
    )
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"kd", "kh", "kw", "c"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", ("od", "kd"), ("oh", "kh"), ("ow", "kw"), "c"),
        ("kd", "kh", "kw", "c", "f"),
        ("n", "od", "oh", "ow", "f"),
    )


@irdl_op_definition
class DepthwiseConv2DNhwcHwcOp(WindowedOp):
    name = "linalg.depthwise_conv_2d_nhwc_hwc"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "oh", "ow", "ic", "kh", "kw")
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"kh", "kw"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", ("oh", "kh"), ("ow", "kw"), "ic"),
        ("kh", "kw", "ic"),
        ("n", "oh", "ow", "ic"),
    )


class PoolingOp(WindowedOp):
    """A pooling: the filter operand only gives the window's shape; the body
    combines the init with the cast input element."""

    COMBINE: ClassVar[BinaryFn]

    @classmethod
    def region_builder(cls, b: BodyBuilder, props: Mapping[str, Attribute]) -> None:
        out = b.args[-1]
        b.yield_(b.binary(cls.COMBINE, out, b.cast(out.type, b.args[0])))


class _PoolingNhwcOp(PoolingOp):
    """The NHWC poolings: a window over ``oh``/``ow`` per batch and channel."""

    LOOPS: ClassVar[tuple[str, ...]] = ("n", "oh", "ow", "c", "kh", "kw")
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"kh", "kw"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", ("oh", "kh"), ("ow", "kw"), "c"),
        ("kh", "kw"),
        ("n", "oh", "ow", "c"),
    )


@irdl_op_definition
class PoolingNhwcSumOp(_PoolingNhwcOp):
    name = "linalg.pooling_nhwc_sum"
    COMBINE: ClassVar[BinaryFn] = BinaryFn.ADD


@irdl_op_definition
class PoolingNhwcMaxOp(_PoolingNhwcOp):
    name = "linalg.pooling_nhwc_max"
    COMBINE: ClassVar[BinaryFn] = BinaryFn.MAX_SIGNED


@irdl_op_definition
class PoolingNhwcMinOp(_PoolingNhwcOp):
    name = "linalg.pooling_nhwc_min"
    COMBINE: ClassVar[BinaryFn] = BinaryFn.MIN_SIGNED


@irdl_op_definition
class PoolingNchwMaxOp(PoolingOp):
    name = "linalg.pooling_nchw_max"
    LOOPS: ClassVar[tuple[str, ...]] = ("n", "c", "oh", "ow", "kh", "kw")
    REDUCTIONS: ClassVar[frozenset[str]] = frozenset({"kh", "kw"})
    OPERANDS: ClassVar[tuple[tuple[Index, ...], ...]] = (
        ("n", "c", ("oh", "kh"), ("ow", "kw")),
        ("kh", "kw"),
        ("n", "c", "oh", "ow"),
    )
    COMBINE: ClassVar[BinaryFn] = BinaryFn.MAX_SIGNED


CONV_OPS: tuple[type[NamedStructuredOp], ...] = (
    Conv1DNwcWcfOp,
    Conv2DNhwcHwcfOp,
    Conv2DNchwFchwOp,
    Conv3DNdhwcDhwcfOp,
    DepthwiseConv2DNhwcHwcOp,
    PoolingNhwcSumOp,
    PoolingNhwcMaxOp,
    PoolingNhwcMinOp,
    PoolingNchwMaxOp,
)
