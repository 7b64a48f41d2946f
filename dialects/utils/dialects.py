"""An xDSL dialect with some of its classes replaced by mlkit's.

Where mlkit redefines only some of a dialect's ops (func, scf, arith, memref),
the dialect object is xDSL's with those classes swapped: the rest, their order
and xDSL's dialect interfaces (arith's constant materialization) stay.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping

from xdsl.ir import Dialect, Operation


def with_replacements(
    base: Dialect, replacements: Mapping[type, type], added_ops: Iterable[type[Operation]] = ()
) -> Dialect:
    """``base`` with each op or attribute class in ``replacements`` swapped for
    its value, and ``added_ops`` after its ops."""
    return Dialect(
        base.name,
        [*(replacements.get(op, op) for op in base.operations), *added_ops],
        [replacements.get(attr, attr) for attr in base.attributes],
        # Dialect has no public accessor for its interfaces
        list(base._interfaces),  # pyright: ignore[reportPrivateUsage]
    )


def op_lookup(module: str, dialect: Callable[[], Dialect]) -> Callable[[str], type[Operation]]:
    """A module ``__getattr__`` that finds the dialect's op classes by class name.

    Some of a dialect's ops are xDSL's, some mlkit's replacements, some built from
    tables in submodules; with this, ``mlkit.dialects.arith.AddfOp`` is always the
    class the dialect registers, so code that builds IR (a plugin's pass) need not
    know where each class lives."""

    table: dict[str, type[Operation] | None] = {}  # built on the first miss; None: ambiguous

    def __getattr__(name: str) -> type[Operation]:
        if not table:
            for op in dialect().operations:
                table[op.__name__] = None if op.__name__ in table else op
        found = table.get(name)
        if found is None:
            raise AttributeError(f"module {module!r} has no attribute {name!r}")
        return found

    return __getattr__
