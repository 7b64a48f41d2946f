"""Printing IR as upstream MLIR does.

xDSL's printer differs from mlir-opt's in ways FileCheck lines notice:
- upstream never keeps input SSA names: it numbers values per isolated region
  (``%0``, ``%arg0``), names some results after what they compute (``%c0``,
  ``%cst``, see :mod:`mlkit.syntax.asm_names`) and groups multiple results (``%0:2``);
- it elides the dialect prefix of ops in the default dialect of the enclosing
  op (``module``, and ``return`` inside ``func.func``);
- its attribute dictionaries are sorted by name;
- inside arrays it elides the types of ``i64`` integers and ``f64`` floats
  (``[[0, 1], [2]]``), and it prints affine maps with minimal parentheses.
This printer does the same, so mlkit's output matches upstream's where the
syntax agrees.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from io import StringIO

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, ArrayAttr, FloatAttr, IntegerAttr
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, UnregisteredOp, f64, i64
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove

from mlkit.syntax.affine_text import format_affine_map, format_affine_set
from mlkit.syntax.ssa_names import number_values
from mlkit.syntax.wide_floats import format_wide_float, is_wide_float

# Ops whose regions print the ops of one dialect without its prefix
# (upstream's OpAsmOpInterface::getDefaultDialect).
DEFAULT_DIALECTS: dict[str, str] = {"builtin.module": "builtin", "func.func": "func"}


class MLIRPrinter(Printer):
    """xDSL's printer with mlir-opt's naming, prefixes and attribute layout."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # pyright: ignore[reportArgumentType]
        self._default_dialects: list[str] = ["builtin"]
        self._depth = 0
        self._outside = 0
        self.elide_elements_larger: int | None = None
        """``--mlir-elide-elementsattrs-if-larger``: dense attributes with more
        elements (and not a splat) print as ``dense_resource<__elided__>``."""

    # -- attributes -------------------------------------------------------------
    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        if isinstance(attribute, AffineMapAttr):
            self.print_string(format_affine_map(attribute.data))
            return
        if isinstance(attribute, AffineSetAttr):
            self.print_string(format_affine_set(attribute.data))
            return
        if self._elided(attribute):
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attribute.get_type())  # type: ignore[attr-defined]
            return
        super().print_attribute(attribute)

    def _elided(self, attribute: Attribute) -> bool:
        """Upstream's ``shouldElideElementsAttr``."""
        limit = self.elide_elements_larger
        if limit is None or not isinstance(attribute, DenseIntOrFPElementsAttr):
            return False
        return len(attribute) > limit and not attribute.is_splat()

    def print_float(self, value: float, type: AnyFloat) -> None:
        if is_wide_float(type):  # xDSL cannot pack f80 or f128 to check its digits
            self.print_string(format_wide_float(value, type))
            return
        super().print_float(value, type)

    def _print_array_element(self, attribute: Attribute) -> None:
        if isinstance(attribute, IntegerAttr) and attribute.type == i64:
            self.print_int(attribute.value.data, attribute.type)
        elif isinstance(attribute, FloatAttr) and attribute.type == f64:
            attribute.print_without_type(self)
        else:
            self.print_attribute(attribute)

    def print_successors(self, successors: Sequence[Block]) -> None:
        # generic form: upstream writes `"cf.br"(%0)[^bb1]`, with no space
        if successors:
            with self.in_square_brackets():
                self.print_list(successors, self.print_block_name)

    # -- SSA names --------------------------------------------------------------
    def _name_of(self, value: SSAValue) -> str:
        if value not in self._ssa_values:
            # a value defined outside what is being printed (e.g. an IR dump of
            # one op): number it after everything else, as upstream does
            self._ssa_values[value] = f"{self._outside}"
            self._outside += 1
        return self._ssa_values[value]

    def print_ssa_value(self, value: SSAValue) -> str:
        name = self._name_of(value)
        self.print_string(f"%{name}")
        return name

    def _print_results(self, op: Operation) -> None:
        if not op.results:
            return
        # results named `%base#i` print as one group `%base:k`, as upstream does
        groups: list[list[str | int]] = []  # [base, count, grouped]
        for res in op.results:
            base, hash_, _ = self._name_of(res).partition("#")
            if hash_ and groups and groups[-1][0] == base and groups[-1][2]:
                groups[-1][1] = int(groups[-1][1]) + 1
            else:
                groups.append([base, 1, int(bool(hash_))])
        texts = [f"%{base}:{count}" if grouped else f"%{base}" for base, count, grouped in groups]
        self.print_string(", ".join(texts) + " = ")

    # -- op names -----------------------------------------------------------------
    def print_op(self, op: Operation) -> None:
        """xDSL's ``print_op`` with upstream's default-dialect prefix elision."""
        if self._depth == 0:
            # the outermost op printed: name everything in it as upstream does
            names = number_values(op, generic=self.print_generic_format)
            self._ssa_values.update(names)
            self._outside = 1 + max(
                (int(n.split("#")[0]) for n in names.values() if n.split("#")[0].isdigit()),
                default=-1,
            )
        self._depth += 1
        isolated = bool(op.get_traits_of_type(IsolatedFromAbove))
        self._print_results(op)
        if isolated:
            self.enter_scope()
        self._default_dialects.append(DEFAULT_DIALECTS.get(op.name, ""))
        try:
            if isinstance(op, UnregisteredOp):
                self.print_string(f'"{op.op_name.data}"')
                op_name = op.op_name
                del op.attributes["op_name__"]
                self.print_op_with_default_format(op)
                op.attributes["op_name__"] = op_name
            elif self.print_generic_format or Operation.print is type(op).print:
                self.print_string(f'"{op.name}"')
                self.print_op_with_default_format(op)
            else:
                self.print_string(self._short_name(op.name))
                op.print(self)
                if self.print_debuginfo:
                    self.print_string(" ")
                    self.print_attribute(op.location)
        finally:
            self._depth -= 1
            self._default_dialects.pop()
            if isolated:
                self.exit_scope()

    def _short_name(self, name: str) -> str:
        default = self._default_dialects[-2]
        dialect, _, rest = name.partition(".")
        if default and dialect == default and "." not in rest:
            return rest
        return name


def print_op(
    op: Operation,
    *,
    generic: bool = False,
    debuginfo: bool = False,
    elide_elements_larger: int | None = None,
) -> str:
    """The text of ``op`` and everything nested in it."""
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.elide_elements_larger = elide_elements_larger
    printer.print_op(op)
    return out.getvalue()
