"""Printing IR as upstream MLIR does.

xDSL's printer differs from mlir-opt's in ways FileCheck lines notice:
- upstream never keeps input SSA names: it numbers values per isolated region
  (``%0``, ``%arg0``), names some results after what they compute (``%c0``,
  ``%cst``, see :mod:`mlkit.syntax.asm_names`) and groups multiple results (``%0:2``);
- it elides the dialect prefix of ops in the default dialect of the enclosing
  op (``module``, and ``return`` inside ``func.func``);
- its attribute dictionaries are sorted by name;
- inside arrays it elides the types of ``i64`` integers and ``f64`` floats
  (``[[0, 1], [2]]``), and it prints affine maps with minimal parentheses;
- it numbers blocks ``^bb0``, ``^bb1``... per region, whatever the input
  called them, and notes each labelled block's predecessors (``// pred: ^bb0``,
  ``// 2 preds: ^bb1, ^bb2``, ``// no predecessors``);
- printing a top-level op, it names affine maps and integer sets by aliases
  (``#map1 = affine_map<...>`` above the op, ``#map1`` where used), numbered
  per kind in the order they are printed, maps before sets (upstream's
  ``AliasInitializer``, which orders aliases by name).
This printer does the same, so mlkit's output matches upstream's where the
syntax agrees.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from io import StringIO

from xdsl.dialects.builtin import AffineMapAttr, AffineSetAttr, ArrayAttr, FloatAttr, IntegerAttr
from xdsl.dialects.builtin import AnyFloat, DenseIntOrFPElementsAttr, UnregisteredOp, f64, i64
from xdsl.dialects.builtin import MemRefType, NoneAttr, UnrankedMemRefType
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, IsTerminator

from mlkit.syntax.aliases import AliasTable, alias_body
from mlkit.syntax.float_text import format_float, semantics_of
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
        self.local_scope = False
        """``--mlir-print-local-scope``: no aliases, every attribute in place."""
        self._aliases: AliasTable | None = None

    # -- attributes -------------------------------------------------------------
    def print_attr_dict(self, attr_dict: Mapping[str, Attribute]) -> None:
        super().print_attr_dict(dict(sorted(attr_dict.items())))

    def print_attribute(self, attribute: Attribute) -> None:
        if isinstance(attribute, ArrayAttr):
            with self.in_square_brackets():
                self.print_list(attribute.data, self._print_array_element)
            return
        if isinstance(attribute, AffineMapAttr | AffineSetAttr):
            if self._aliases is not None:
                self.print_string(f"#{self._aliases.name_of(attribute)}")
            else:
                self.print_string(alias_body(attribute))
            return
        if isinstance(attribute, MemRefType | UnrankedMemRefType) and _i64(attribute.memory_space):
            self._print_memref(attribute)
            return
        if self._elided(attribute):
            self.print_string("dense_resource<__elided__> : ")
            self.print_attribute(attribute.get_type())  # type: ignore[attr-defined]
            return
        super().print_attribute(attribute)

    def _print_memref(self, type_: MemRefType | UnrankedMemRefType) -> None:
        """xDSL's memref syntax with an ``i64`` memory space's type elided
        (``memref<4xf32, 3>``), as upstream's ``AttrTypeElision::May`` does."""
        space = type_.memory_space
        assert isinstance(space, IntegerAttr)
        self.print_string("memref<")
        if isinstance(type_, UnrankedMemRefType):
            self.print_string("*x")
        elif type_.shape.data:
            self.print_dimension_list(type_.get_shape())
            self.print_string("x")
        self.print_attribute(type_.element_type)
        if isinstance(type_, MemRefType) and not isinstance(type_.layout, NoneAttr):
            self.print_string(", ")
            self.print_attribute(type_.layout)
        self.print_string(f", {space.value.data}>")

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
        text = format_float(value, type.name)
        if text is not None:
            self.print_string(text)
        elif not math.isfinite(value) or semantics_of(type.name) is not None:
            # upstream prints the bits, in upper case, where digits would not do
            self.print_string(f"0x{type.pack((value,))[::-1].hex().upper()}")
        else:
            super().print_float(value, type)

    def _print_array_element(self, attribute: Attribute) -> None:
        if isinstance(attribute, IntegerAttr) and attribute.type == i64:
            self.print_int(attribute.value.data, attribute.type)
        elif isinstance(attribute, FloatAttr) and attribute.type == f64:
            attribute.print_without_type(self)
        else:
            self.print_attribute(attribute)

    # -- blocks -------------------------------------------------------------------
    def _populate_block_name(self, block: Block, block_index: int | None = None) -> None:
        if block_index is None:
            region = block.parent
            block_index = region.get_block_index(block) if region is not None else 0
        self._blocks[block] = f"bb{block_index}"

    def print_block(
        self, block: Block, print_block_args: bool = True, print_block_terminator: bool = True
    ) -> None:
        if not print_block_args:
            super().print_block(block, False, print_block_terminator)
            return
        # xDSL prints the label and then the ops; the comment goes between them
        self._print_new_line()
        if block not in self._blocks:
            self._populate_block_name(block)
        self.print_block_name(block)
        if block.args:
            with self.in_parens():
                self.print_list(block.args, self.print_block_argument)
        self.print_string(":")
        self._print_predecessors(block)
        with self.indented():
            for op in block.ops:
                if not print_block_terminator and op.has_trait(
                    IsTerminator, value_if_unregistered=False
                ):
                    continue
                self._print_new_line()
                self.print_op(op)

    def _print_predecessors(self, block: Block) -> None:
        """Upstream's comment on a block's predecessors, in block order."""
        region = block.parent
        if region is None:
            self.print_string("  // block is not in a region!")
            return
        preds = [use.operation.parent_block() for use in block.uses]
        if not preds:
            if region.blocks.first is not block:
                self.print_string("  // no predecessors")
            return
        if len(preds) == 1:
            self.print_string("  // pred: ")
            self._print_pred(preds[0])
            return
        order = {b: i for i, b in enumerate(region.blocks)}
        preds.sort(key=lambda b: order.get(b, len(order)) if b is not None else len(order))
        self.print_string(f"  // {len(preds)} preds: ")
        self.print_list(preds, self._print_pred)

    def _print_pred(self, block: Block | None) -> None:
        if block is None:
            self.print_string("<<UNKNOWN BLOCK>>")
        else:
            self.print_block_name(block)

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
        if self._depth == 0 and op.parent is None and self._aliases is None and not self.local_scope:
            self._print_with_aliases(op)
            return
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

    def _print_with_aliases(self, op: Operation) -> None:
        """Print ``op`` aside, then the aliases it used, then the op."""
        stream, self.stream = self.stream, StringIO()
        self._aliases = aliases = AliasTable()
        if self.print_generic_format:
            aliases.collect_generic(op)
        try:
            self.print_op(op)
            body = self.stream.getvalue()  # type: ignore[union-attr]
            stream.write(aliases.definitions())
            stream.write(body)
        finally:
            self.stream = stream
            self._aliases = None

    def _short_name(self, name: str) -> str:
        default = self._default_dialects[-2]
        dialect, _, rest = name.partition(".")
        if default and dialect == default and "." not in rest:
            return rest
        return name


def _i64(attribute: Attribute) -> bool:
    return isinstance(attribute, IntegerAttr) and attribute.type == i64


def print_op(
    op: Operation,
    *,
    generic: bool = False,
    debuginfo: bool = False,
    elide_elements_larger: int | None = None,
    local_scope: bool = False,
) -> str:
    """The text of ``op`` and everything nested in it."""
    out = StringIO()
    printer = MLIRPrinter(stream=out, print_generic_format=generic, print_debuginfo=debuginfo)
    printer.elide_elements_larger = elide_elements_larger
    printer.local_scope = local_scope
    printer.print_op(op)
    return out.getvalue()
