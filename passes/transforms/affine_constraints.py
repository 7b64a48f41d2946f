"""Systems of integer linear constraints, for the affine loop analyses.

A small counterpart of upstream's ``FlatAffineValueConstraints`` (the
Presburger library): equalities and inequalities over integer variables,
projected by Gaussian and Fourier-Motzkin elimination with the GCD
tightening upstream applies at each step. Upstream's emptiness test, the
bounds of dependence distances and the bounding boxes of memory regions are
all computed this way, so the same facts come out for the loop nests the
affine passes see. xDSL has no such library.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

Row = tuple[int, ...]  # coefficients of the variables, then the constant

# Fourier-Motzkin can blow up; past this many rows an analysis gives up and
# its caller answers conservatively.
MAX_ROWS = 4000


class TooComplex(Exception):
    """Elimination produced more rows than :data:`MAX_ROWS`."""


class _Infeasible(Exception):
    pass


def _gcd(values: Iterable[int]) -> int:
    g = 0
    for v in values:
        g = math.gcd(g, v)
    return g


def _normalized_ineq(row: Sequence[int]) -> Row | None:
    """``row >= 0`` divided by its coefficients' GCD, the constant rounded
    down; None when it holds trivially."""
    g = _gcd(row[:-1])
    if g == 0:
        if row[-1] < 0:
            raise _Infeasible
        return None
    return (*(c // g for c in row[:-1]), row[-1] // g)


def _normalized_eq(row: Sequence[int]) -> Row | None:
    """``row == 0`` divided by its GCD with a positive leading coefficient;
    None when trivial. A constant the GCD does not divide has no integer
    solution (the GCD test)."""
    g = _gcd(row[:-1])
    if g == 0:
        if row[-1] != 0:
            raise _Infeasible
        return None
    if row[-1] % g:
        raise _Infeasible
    lead = next(c for c in row[:-1] if c)
    sign = 1 if lead > 0 else -1
    return tuple(sign * c // g for c in row)


def _combine(a: Row, ka: int, b: Row, kb: int) -> list[int]:
    return [ka * x + kb * y for x, y in zip(a, b)]


@dataclass
class Constraints:
    """``eqs`` hold ``row == 0`` and ``ineqs`` ``row >= 0``, each row the
    coefficients of ``num_vars`` variables followed by a constant."""

    num_vars: int = 0
    eqs: list[Row] = field(default_factory=list[Row])
    ineqs: list[Row] = field(default_factory=list[Row])
    infeasible: bool = False

    def add_var(self) -> int:
        self.eqs = [(*r[:-1], 0, r[-1]) for r in self.eqs]
        self.ineqs = [(*r[:-1], 0, r[-1]) for r in self.ineqs]
        self.num_vars += 1
        return self.num_vars - 1

    def row(self, coeffs: dict[int, int], const: int) -> list[int]:
        """A dense row from sparse coefficients."""
        dense = [0] * (self.num_vars + 1)
        for var, c in coeffs.items():
            dense[var] += c
        dense[-1] += const
        return dense

    def add_eq(self, row: Sequence[int]) -> None:
        self._add(row, True)

    def add_ineq(self, row: Sequence[int]) -> None:
        self._add(row, False)

    def _add(self, row: Sequence[int], eq: bool) -> None:
        if self.infeasible:
            return
        try:
            norm = _normalized_eq(row) if eq else _normalized_ineq(row)
        except _Infeasible:
            self.infeasible = True
            return
        if norm is not None:
            (self.eqs if eq else self.ineqs).append(norm)

    def copy(self) -> Constraints:
        return Constraints(self.num_vars, list(self.eqs), list(self.ineqs), self.infeasible)

    # -- elimination -----------------------------------------------------

    def _dedup(self) -> None:
        """Drop duplicate inequalities, keeping the tightest constant of rows
        that differ only there (upstream's trivial-redundancy removal)."""
        best: dict[Row, int] = {}
        for r in self.ineqs:
            key = r[:-1]
            if key not in best or r[-1] < best[key]:
                best[key] = r[-1]
        for key, const in best.items():
            neg = tuple(-c for c in key)
            if neg in best and const + best[neg] < 0:
                raise _Infeasible
        self.ineqs = [(*key, const) for key, const in best.items()]
        self.eqs = list(dict.fromkeys(self.eqs))
        if len(self.ineqs) > MAX_ROWS:
            raise TooComplex

    def _eliminate(self, var: int) -> None:
        eqs = [r for r in self.eqs if r[var]]
        if eqs:
            pivot = min(eqs, key=lambda r: abs(r[var]))
            a = pivot[var]
            sign = 1 if a > 0 else -1
            new_eqs: list[Row] = []
            for r in self.eqs:
                if r is pivot:
                    continue
                b = r[var]
                norm = _normalized_eq(_combine(r, abs(a), pivot, -sign * b) if b else r)
                if norm is not None:
                    new_eqs.append(norm)
            new_ineqs: list[Row] = []
            for r in self.ineqs:
                b = r[var]
                norm = _normalized_ineq(_combine(r, abs(a), pivot, -sign * b) if b else r)
                if norm is not None:
                    new_ineqs.append(norm)
            self.eqs, self.ineqs = new_eqs, new_ineqs
        else:
            lower = [r for r in self.ineqs if r[var] > 0]
            upper = [r for r in self.ineqs if r[var] < 0]
            rest = [r for r in self.ineqs if not r[var]]
            if len(lower) * len(upper) > MAX_ROWS:
                raise TooComplex
            for lo in lower:
                for up in upper:
                    norm = _normalized_ineq(_combine(lo, -up[var], up, lo[var]))
                    if norm is not None:
                        rest.append(norm)
            self.ineqs = rest
        self._dedup()

    def _cost(self, var: int) -> int:
        if any(r[var] for r in self.eqs):
            return -1
        lower = sum(1 for r in self.ineqs if r[var] > 0)
        upper = sum(1 for r in self.ineqs if r[var] < 0)
        return lower * upper - lower - upper

    def project_out(self, variables: Iterable[int]) -> None:
        """Eliminate ``variables`` (their columns become zero), cheapest first.
        Raises :class:`TooComplex` when the system grows too large."""
        pending = set(variables)
        try:
            self._dedup()
            while pending and not self.infeasible:
                live = [v for v in pending if any(r[v] for r in (*self.eqs, *self.ineqs))]
                if not live:
                    break
                var = min(live, key=lambda v: (self._cost(v), v))
                pending.discard(var)
                self._eliminate(var)
        except _Infeasible:
            self.infeasible = True

    def is_empty(self) -> bool:
        """Whether no (rational, GCD-tightened) point satisfies the system."""
        probe = self.copy()
        probe.project_out(range(self.num_vars))
        return probe.infeasible

    def constant_bounds(self, var: int) -> tuple[int | None, int | None] | None:
        """The constant lower and upper bounds of ``var`` over the system
        (None where unbounded); None when the system is empty."""
        probe = self.copy()
        probe.project_out(v for v in range(self.num_vars) if v != var)
        if probe.infeasible:
            return None
        lb: int | None = None
        ub: int | None = None
        for r in probe.eqs:
            if r[var]:
                if r[-1] % r[var]:
                    return None
                value = -r[-1] // r[var]
                return value, value
        for r in probe.ineqs:
            a, c = r[var], r[-1]
            if a > 0:
                bound = -(c // a)  # ceil(-c / a)
                lb = bound if lb is None else max(lb, bound)
            elif a < 0:
                bound = c // -a
                ub = bound if ub is None else min(ub, bound)
        if lb is not None and ub is not None and lb > ub:
            return None
        return lb, ub
