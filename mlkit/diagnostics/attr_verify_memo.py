"""Memoized verification of parametrized attributes.

xDSL verifies every ``ParametrizedAttribute`` it constructs, and lowerings
construct a fresh but equal type or attribute for nearly every op they build
(``i64``, ``!llvm.ptr``, overflow flags): 68,000 verifications of a few
hundred distinct values in a ``lower-to-cpu`` run of the compile benchmark,
each running every parameter's constraint. Verification is a pure function
of the class and the (immutable) parameters, so the pairs that passed are
remembered by value and not checked again; an attribute that fails is
checked every time, so its error is raised as before. Attributes with an
unhashable parameter are always checked. The memo is dropped whole when it
grows past ``LIMIT`` entries.
"""

from __future__ import annotations

from xdsl.ir import ParametrizedAttribute

LIMIT = 100_000

_xdsl_verify = ParametrizedAttribute._verify  # pyright: ignore[reportPrivateUsage]
_passed: set[tuple[object, ...]] = set()


def _verify(self: ParametrizedAttribute) -> None:
    """``ParametrizedAttribute._verify``, once per distinct value."""
    cls = type(self)
    try:
        key = (cls, *[getattr(self, name) for name, _ in cls.get_irdl_definition().parameters])
        if key in _passed:
            return
    except TypeError:  # an unhashable parameter
        _xdsl_verify(self)
        return
    _xdsl_verify(self)
    if len(_passed) >= LIMIT:
        _passed.clear()
    _passed.add(key)


ParametrizedAttribute._verify = _verify  # pyright: ignore[reportAttributeAccessIssue]
