"""Kernel launches: ``gpu.launch`` (a kernel written inline, with its
terminator ``gpu.terminator``) and ``gpu.launch_func`` (a launch of a kernel
of a ``gpu.module``), with upstream's syntax and verifiers.

xDSL 0.75's versions have no custom syntax and lack upstream's properties
(launch clusters, module and function names); so both are replaced here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from xdsl.dialects.builtin import IndexType, IntegerAttr, SymbolRefAttr, UnitAttr, i32, i64
from xdsl.dialects.builtin import ModuleOp as BuiltinModuleOp
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.dialects.utils import parse_assignment, print_assignment
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.irdl import AnyAttr, AttrSizedOperandSegments, IRDLOperation, VarConstraint
from xdsl.irdl import irdl_op_definition, operand_def, opt_operand_def, opt_prop_def, prop_def
from xdsl.irdl import region_def, traits_def, var_operand_def
from xdsl.irdl.declarative_assembly_format import ParsingState, TypeDirective
from xdsl.irdl.declarative_assembly_format import VariadicOperandVariable, irdl_custom_directive
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure, SymbolTable
from xdsl.utils.exceptions import VerifyException

from mlkit.diagnostics.verifier import ErrorAt
from mlkit.dialects.gpu.attrs import AddressSpace
from mlkit.dialects.gpu.func import GPUFuncOp, verify_attributions
from mlkit.dialects.gpu.module import CONTAINER_MODULE_ATTR, KERNEL_FUNC_ATTR, BinaryOp
from mlkit.dialects.gpu.module import GPUModuleOp
from mlkit.dialects.gpu.syntax import ASYNC_FORMAT, AsyncOp, parse_async_dependencies
from mlkit.dialects.gpu.syntax import parse_attributions, print_async_dependencies
from mlkit.dialects.gpu.syntax import print_attributions
from mlkit.dialects.utils.directives import SpacedDirective
from mlkit.dialects.utils.operand_lists import parse_typed_operand, print_typed_value


def _parse_size_assignment(
    parser: Parser,
) -> tuple[list[Parser.UnresolvedArgument], list[Parser.UnresolvedArgument], list[UnresolvedOperand]]:
    """``(%id, %id, %id) in (%size = %v, %size = %v, %size = %v)``."""
    ids = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parser.parse_argument(expect_type=False)
    )
    if len(ids) != 3:
        parser.raise_error("expected 3 identifiers")
    parser.parse_keyword("in")
    pairs = parser.parse_comma_separated_list(
        parser.Delimiter.PAREN, lambda: parse_assignment(parser)
    )
    if len(pairs) != 3:
        parser.raise_error("expected 3 size assignments")
    return ids, [size for size, _ in pairs], [value for _, value in pairs]


def _print_size_assignment(
    printer: Printer,
    ids: Sequence[BlockArgument],
    sizes: Sequence[BlockArgument],
    values: Sequence[SSAValue],
) -> None:
    printer.print_string("(")
    printer.print_list(ids, printer.print_ssa_value)
    printer.print_string(") in (")
    printer.print_list(zip(sizes, values), lambda pair: print_assignment(printer, *pair))
    printer.print_string(")")


@irdl_op_definition
class LaunchOp(AsyncOp):
    """``gpu.launch (clusters(...) in (...))? blocks(...) in (...) threads(...)
    in (...) ...``: a kernel written inline. Its body receives block and thread
    ids and sizes (and cluster ids and sizes) as its first 12 (18) arguments."""

    name = "gpu.launch"

    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(IndexType)
    gridSizeY = operand_def(IndexType)
    gridSizeZ = operand_def(IndexType)
    blockSizeX = operand_def(IndexType)
    blockSizeY = operand_def(IndexType)
    blockSizeZ = operand_def(IndexType)
    clusterSizeX = opt_operand_def(IndexType)
    clusterSizeY = opt_operand_def(IndexType)
    clusterSizeZ = opt_operand_def(IndexType)
    dynamicSharedMemorySize = opt_operand_def(i32)
    asyncObject = opt_operand_def()
    workgroup_attributions = opt_prop_def(IntegerAttr.constr(type=i64))
    module = opt_prop_def(SymbolRefAttr)
    function = opt_prop_def(SymbolRefAttr)
    body = region_def()

    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    @property
    def has_cluster_size(self) -> bool:
        return None not in (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)

    @property
    def num_config_args(self) -> int:
        return 18 if self.has_cluster_size else 12

    @property
    def num_workgroup_attributions(self) -> int:
        n = self.workgroup_attributions
        return 0 if n is None else n.value.data

    @classmethod
    def parse(cls, parser: Parser) -> LaunchOp:
        """Upstream's ``LaunchOp::parse``."""
        index = IndexType()
        is_async, deps = parse_async_dependencies(parser)
        dep_values = [parser.resolve_operand(d, AsyncTokenType()) for d in deps]

        cluster = None
        if parser.parse_optional_keyword("clusters") is not None:
            cluster = _parse_size_assignment(parser)
        parser.parse_keyword("blocks")
        blocks = _parse_size_assignment(parser)
        parser.parse_keyword("threads")
        threads = _parse_size_assignment(parser)

        def resolve(values: Sequence[UnresolvedOperand]) -> list[SSAValue]:
            return [parser.resolve_operand(v, index) for v in values]

        grid, block = resolve(blocks[2]), resolve(threads[2])
        cluster_values = resolve(cluster[2]) if cluster else []
        smem: list[SSAValue] = []
        if parser.parse_optional_keyword("dynamic_shared_memory_size") is not None:
            smem = [parser.resolve_operand(parser.parse_unresolved_operand(), i32)]

        props: dict[str, Attribute] = {}
        for key in ("module", "function"):
            if parser.parse_optional_keyword(key) is not None:
                parser.parse_punctuation("(")
                props[key] = SymbolRefAttr(parser.parse_symbol_name())
                parser.parse_punctuation(")")

        # region arguments: block ids, thread ids, grid sizes, block sizes,
        # then cluster ids and cluster sizes, all `index`
        unresolved = [*blocks[0], *threads[0], *blocks[1], *threads[1]]
        if cluster:
            unresolved += [*cluster[0], *cluster[1]]
        entry: list[Parser.Argument] = [a.resolve(index) for a in unresolved]
        n_workgroup, _ = parse_attributions(parser, "workgroup", entry)
        if n_workgroup:
            props["workgroup_attributions"] = IntegerAttr(n_workgroup, i64)
        parse_attributions(parser, "private", entry)
        body = parser.parse_region(entry)
        attrs = parser.parse_optional_attr_dict()

        operands: list[Any] = [dep_values, *grid, *block]
        operands += [[v] for v in cluster_values] if cluster else [[], [], []]
        operands += [smem, []]
        return cls.build(
            operands=operands,
            result_types=[[AsyncTokenType()] if is_async else []],
            properties=props,
            attributes=attrs,
            regions=[body],
        )

    def print(self, printer: Printer) -> None:
        """Upstream's ``LaunchOp::print``."""
        if self.asyncToken is not None:
            printer.print_string(" ")
            print_async_dependencies(printer, True, self.asyncDependencies)
        args = self.body.blocks[0].args
        if self.has_cluster_size:
            printer.print_string(" clusters")
            clusters = (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)
            _print_size_assignment(printer, args[12:15], args[15:18], clusters)  # pyright: ignore[reportArgumentType]
        printer.print_string(" blocks")
        _print_size_assignment(
            printer, args[0:3], args[6:9], (self.gridSizeX, self.gridSizeY, self.gridSizeZ)
        )
        printer.print_string(" threads")
        _print_size_assignment(
            printer, args[3:6], args[9:12], (self.blockSizeX, self.blockSizeY, self.blockSizeZ)
        )
        if self.dynamicSharedMemorySize is not None:
            printer.print_string(" dynamic_shared_memory_size ")
            printer.print_operand(self.dynamicSharedMemorySize)
        for key in ("module", "function"):
            ref = self.properties.get(key)
            if isinstance(ref, SymbolRefAttr):
                printer.print_string(f" {key}(")
                printer.print_symbol_name(ref.root_reference.data)
                printer.print_string(")")
        first = self.num_config_args
        n_wg = self.num_workgroup_attributions
        print_attributions(printer, "workgroup", args[first : first + n_wg], None)
        print_attributions(printer, "private", args[first + n_wg :], None)
        printer.print_string(" ")
        printer.print_region(self.body, print_entry_block_args=False)
        printer.print_op_attributes(self.attributes)

    def verify_(self) -> None:
        sizes = (self.clusterSizeX, self.clusterSizeY, self.clusterSizeZ)
        if not self.has_cluster_size and any(s is not None for s in sizes):
            raise VerifyException("cluster size must be all present")
        if not self.body.blocks:
            return
        args = self.body.blocks[0].args
        first = self.num_config_args
        if len(args) < first + self.num_workgroup_attributions:
            raise VerifyException("unexpected number of region arguments")
        wg = args[first : first + self.num_workgroup_attributions]
        verify_attributions(wg, AddressSpace.WORKGROUP)
        verify_attributions(args[first + len(wg) :], AddressSpace.PRIVATE)
        for block in self.body.blocks:
            last = block.last_op
            if last is None or last.successors:
                continue
            if not isinstance(last, TerminatorOp):
                raise ErrorAt(
                    last,
                    "expected 'gpu.terminator' or a terminator with successors",
                    [(self, "in 'gpu.launch' body region")],
                )


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """Terminator of ``gpu.launch`` bodies."""

    name = "gpu.terminator"

    traits = traits_def(IsTerminator(), HasParent(LaunchOp), Pure())
    assembly_format = "attr-dict"


@irdl_custom_directive
class LaunchDimType(SpacedDirective):
    """``(`:` type)?`` after the launch sizes; ``index`` when absent."""

    dim_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        t = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        self.dim_type.set(state, [t])

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        (t,) = self.dim_type.get(op)
        if not isinstance(t, IndexType):
            printer.print_string(": ")
            printer.print_attribute(t)


@irdl_custom_directive
class LaunchFuncOperands(SpacedDirective):
    """``(`args` `(` (%v `:` type),* `)`)?``: the kernel's operands."""

    operands: VariadicOperandVariable
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        pairs: list[tuple[UnresolvedOperand, Attribute]] = []
        if parser.parse_optional_keyword("args") is not None:
            pairs = _parse_argument_list(parser)
        self.operands.set(state, [v for v, _ in pairs])
        self.types.set(state, [t for _, t in pairs])

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        values = self.operands.get(op)
        if values:
            printer.print_string("args(")
            printer.print_list(values, lambda v: print_typed_value(printer, v))
            printer.print_string(")")


def _parse_argument_list(parser: Parser) -> list[tuple[UnresolvedOperand, Attribute]]:
    """``(%v : type, ...)``, failing as upstream's ``parseCommaSeparatedList`` with
    the context `` in argument list`` does."""
    parser.parse_punctuation("(")
    pairs: list[tuple[UnresolvedOperand, Attribute]] = []
    if parser.parse_optional_punctuation(")") is not None:
        return pairs
    while True:
        pairs.append(parse_typed_operand(parser))
        if parser.parse_optional_punctuation(",") is None:
            break
    if parser.parse_optional_punctuation(")") is None:
        parser.raise_error("expected ')' in argument list")
    return pairs


@irdl_op_definition
class LaunchFuncOp(AsyncOp):
    """``gpu.launch_func @module::@kernel blocks in (...) threads in (...)
    args(...)``: launches a kernel of a ``gpu.module`` from the host."""

    name = "gpu.launch_func"

    DIM: ClassVar = VarConstraint("DIM", AnyAttr())

    asyncDependencies = var_operand_def(AsyncTokenType)
    gridSizeX = operand_def(DIM)
    gridSizeY = operand_def(DIM)
    gridSizeZ = operand_def(DIM)
    blockSizeX = operand_def(DIM)
    blockSizeY = operand_def(DIM)
    blockSizeZ = operand_def(DIM)
    clusterSizeX = opt_operand_def(DIM)
    clusterSizeY = opt_operand_def(DIM)
    clusterSizeZ = opt_operand_def(DIM)
    dynamicSharedMemorySize = opt_operand_def(i32)
    kernelOperands = var_operand_def()
    asyncObject = opt_operand_def()
    kernel = prop_def(SymbolRefAttr)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (*AsyncOp.custom_directives, LaunchDimType, LaunchFuncOperands)
    assembly_format = (
        f"{ASYNC_FORMAT} "
        "(`<` $asyncObject^ `:` type($asyncObject) `>`)? $kernel "
        "(`clusters` `in` ` ` `(` $clusterSizeX^ `,` $clusterSizeY `,` $clusterSizeZ `)`)? "
        "`blocks` `in` ` ` `(` $gridSizeX `,` $gridSizeY `,` $gridSizeZ `)` "
        "`threads` `in` ` ` `(` $blockSizeX `,` $blockSizeY `,` $blockSizeZ `)` "
        "custom<LaunchDimType>(type($gridSizeX)) "
        "(`dynamic_shared_memory_size` $dynamicSharedMemorySize^)? "
        "custom<LaunchFuncOperands>($kernelOperands, type($kernelOperands)) attr-dict"
    )

    def verify_(self) -> None:
        dim = self.gridSizeX.type
        if dim not in (IndexType(), i32, i64):
            raise VerifyException(
                "operand #0 must be index or 32-bit signless integer or 64-bit signless "
                f"integer, but got '{dim}'"
            )
        module = self.parent_op()
        while module is not None and not isinstance(module, BuiltinModuleOp):
            module = module.parent_op()
        if module is None:
            raise VerifyException("expected to belong to a module")
        if not isinstance(module.attributes.get(CONTAINER_MODULE_ATTR), UnitAttr):
            raise VerifyException(
                "expected the closest surrounding module to have the "
                f"'{CONTAINER_MODULE_ATTR}' attribute"
            )
        parent = self.parent_op()
        if parent is not None and parent.parent_op() is module:
            self._verify_kernel(module)

    def _verify_kernel(self, module: BuiltinModuleOp) -> None:
        """Upstream checks these when verifying ``gpu.container_module``."""
        container_name = self.kernel.root_reference.data
        container = SymbolTable.lookup_symbol(module, container_name)
        if container is None:
            raise VerifyException(f"kernel container '{container_name}' is undefined")
        if isinstance(container, BinaryOp):
            return
        if not isinstance(container, GPUModuleOp):
            raise VerifyException(f"kernel module '{container_name}' is undefined")
        func = SymbolTable.lookup_symbol(module, self.kernel)
        if func is None:
            raise VerifyException(f"kernel function '{_symref(self.kernel)}' is undefined")
        if "function_type" not in func.properties and "function_type" not in func.attributes:
            raise ErrorAt(
                None,
                f"referenced kernel '{_symref(self.kernel)}' is not a function",
                [(func, "see the kernel definition here")],
            )
        is_kernel = isinstance(func, GPUFuncOp) and func.kernel is not None
        if not is_kernel and not isinstance(func.attributes.get(KERNEL_FUNC_ATTR), UnitAttr):
            raise VerifyException(
                f"kernel function is missing the '{KERNEL_FUNC_ATTR}' attribute"
            )
        if not isinstance(func, GPUFuncOp):
            return
        inputs = func.function_type.inputs.data
        if len(inputs) != len(self.kernelOperands):
            raise VerifyException(
                f"got {len(self.kernelOperands)} kernel operands but expected {len(inputs)}"
            )
        for i, (want, value) in enumerate(zip(inputs, self.kernelOperands)):
            if want != value.type:
                raise VerifyException(f"type of function argument {i} does not match")


def _symref(ref: SymbolRefAttr) -> str:
    return "::".join(f"@{s.data}" for s in (ref.root_reference, *ref.nested_references.data))

