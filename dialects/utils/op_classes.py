"""Op classes made from a table: one per name, all alike but for it.

Upstream generates families of ops from one TableGen class (``llvm.intr.sqrt``,
``exp``, ...; ``nvvm.read.ptx.sreg.tid.x``, ...). :func:`define_op` does the
same for an IRDL base class that declares every field: it names a subclass
and runs ``irdl_op_definition`` on it.
"""

from __future__ import annotations

from collections.abc import Callable

from xdsl.irdl import IRDLOperation, irdl_op_definition


def define_op(
    base: type[IRDLOperation],
    op_name: str,
    class_name: str,
    doc: str | None = None,
    *,
    definition: Callable[[type[IRDLOperation]], type[IRDLOperation]] = irdl_op_definition,
) -> type[IRDLOperation]:
    """The op ``op_name``: a subclass ``class_name`` of ``base``, documented
    ``doc`` (by default, its name), defined by ``definition`` (xDSL's
    ``irdl_op_definition``, or a dialect's wrapper of it such as ``upstream_op``)."""
    attrs = {"name": op_name, "__doc__": doc or f"``{op_name}``.", "__module__": base.__module__}
    return definition(type(class_name, (base,), attrs))
