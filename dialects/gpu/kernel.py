"""Kernel structure of mlkit's ``gpu`` dialect: ``gpu.module``, ``gpu.func``,
``gpu.return``, ``gpu.launch``, ``gpu.terminator``, ``gpu.launch_func`` and
``gpu.binary``, with upstream's syntax and verifiers.

xDSL 0.75's versions have no custom syntax (``gpu.module @m {...}`` does not
parse), lack upstream's properties (module targets and offloading handler,
function attributions and their attributes, launch clusters/module/function),
and store ``gpu.known_block_size`` as a discardable attribute where upstream
has a ``known_block_size`` property; so all are replaced here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    MemRefType,
    StringAttr,
    SymbolNameConstraint,
    SymbolRefAttr,
    UnitAttr,
    i32,
    i64,
)
from xdsl.dialects.builtin import ModuleOp as BuiltinModuleOp
from xdsl.dialects.gpu import AsyncTokenType
from xdsl.ir import Attribute, Block, BlockArgument, Operation, Region
from xdsl.irdl import (
    AttrSizedOperandSegments,
    AnyAttr,
    IRDLOperation,
    VarConstraint,
    attr_def,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    opt_result_def,
    prop_def,
    region_def,
    traits_def,
    var_operand_def,
)
from xdsl.irdl.declarative_assembly_format import (
    AttributeVariable,
    CustomDirective,
    ParsingState,
    PrintingState,
    RegionVariable,
    TypeDirective,
    VariadicOperandVariable,
    irdl_custom_directive,
)
from xdsl.parser import Parser, UnresolvedOperand
from xdsl.printer import Printer
from xdsl.traits import (
    HasParent,
    IsolatedFromAbove,
    IsTerminator,
    NoTerminator,
    Pure,
    SymbolOpInterface,
    SymbolTable,
)
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.gpu.attrs import (
    AddressSpace,
    AddressSpaceAttr,
    AsyncDependencies,
    ObjectAttr,
    SelectObjectAttr,
)
from mlkit.dialects.gpu.syntax import (
    parse_func,
    parse_launch,
    print_func,
    print_launch,
)

CONTAINER_MODULE_ATTR = "gpu.container_module"
KERNEL_FUNC_ATTR = "gpu.kernel"


@irdl_custom_directive
class ModuleTargets(CustomDirective):
    """``([#target, ...])?`` of ``gpu.module``. A directive rather than
    ``($targets^)?`` so that the body's ``{`` is never read as a dictionary."""

    targets: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text != "[":  # pyright: ignore[reportPrivateUsage]
            return
        self.targets.set(state, parser.parse_attribute())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if (targets := self.targets.get(op)) is not None:
            printer.print_string(" ")
            printer.print_attribute(targets)
            state.should_emit_space = True
            state.last_was_punctuation = False

    def is_present(self, op: IRDLOperation) -> bool:
        return self.targets.get(op) is not None


@irdl_custom_directive
class ModuleBody(CustomDirective):
    """The body region; ``{}`` holds one empty block, as upstream's does."""

    body: RegionVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        region = parser.parse_region()
        if not region.blocks:
            region.add_block(Block())
        self.body.set(state, region)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(" ")
        printer.print_region(self.body.get(op), print_empty_block=False)


@irdl_op_definition
class GPUModuleOp(IRDLOperation):
    """``gpu.module @name <#handler>? [#targets]? attributes {...}? { ... }``.

    Upstream requires each target to implement ``TargetAttrInterface``
    (``#nvvm.target``, ``#rocdl.target``); mlkit accepts any attribute, as
    target dialects register separately."""

    name = "gpu.module"

    sym_name = prop_def(SymbolNameConstraint())
    targets = opt_prop_def(ArrayAttr)
    offloadingHandler = opt_prop_def(Attribute)
    bodyRegion = region_def("single_block")

    traits = traits_def(IsolatedFromAbove(), NoTerminator(), SymbolOpInterface(), SymbolTable())
    custom_directives = (ModuleTargets, ModuleBody)
    assembly_format = (
        "$sym_name (`<` $offloadingHandler^ `>`)? custom<ModuleTargets>($targets) "
        "attr-dict-with-keyword custom<ModuleBody>($bodyRegion)"
    )

    def __init__(self, name: str, targets: Sequence[Attribute] = (), body: Region | None = None):
        props: dict[str, Attribute] = {"sym_name": StringAttr(name)}
        if targets:
            props["targets"] = ArrayAttr(targets)
        super().__init__(properties=props, regions=[body or Region(Block())])

    def verify_(self) -> None:
        if self.targets is not None and not self.targets.data:
            raise VerifyException(
                "attribute 'targets' failed to satisfy constraint: array of GPU "
                "target attributes with at least 1 elements"
            )


DimSizeHint = DenseArrayBase.constr(i32)


def _attributions(
    op: Operation, values: Sequence[BlockArgument], space: AddressSpace
) -> None:
    """Upstream's check of workgroup/private attribution types."""
    for v in values:
        if not isinstance(v.type, MemRefType):
            raise VerifyException("expected memref type in attribution")
        ms = v.type.memory_space
        if isinstance(ms, AddressSpaceAttr) and ms.data != space:
            raise VerifyException(f"expected memory space {space.value} in attribution")


@irdl_op_definition
class GPUFuncOp(IRDLOperation):
    """A function run on the GPU, with workgroup and private memory
    attributions as extra entry-block arguments after the function's own."""

    name = "gpu.func"

    sym_name = attr_def(SymbolNameConstraint())
    function_type = prop_def(FunctionType)
    arg_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    res_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    workgroup_attrib_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    private_attrib_attrs = opt_prop_def(ArrayAttr[DictionaryAttr])
    known_block_size = opt_prop_def(DimSizeHint)
    known_grid_size = opt_prop_def(DimSizeHint)
    known_cluster_size = opt_prop_def(DimSizeHint)
    workgroup_attributions = opt_prop_def(IntegerAttr.constr(type=i64))
    kernel = opt_prop_def(UnitAttr)
    body = region_def()

    traits = traits_def(
        IsolatedFromAbove(), HasParent(GPUModuleOp), SymbolOpInterface()
    )

    # properties upstream prints in the `attributes {...}` dictionary
    PRINTED_PROPERTIES: ClassVar[tuple[str, ...]] = (
        "known_block_size",
        "known_grid_size",
        "known_cluster_size",
    )

    @property
    def num_workgroup_attributions(self) -> int:
        n = self.workgroup_attributions
        return 0 if n is None else n.value.data

    def workgroup_args(self) -> Sequence[BlockArgument]:
        first = len(self.function_type.inputs)
        return self.body.blocks[0].args[first : first + self.num_workgroup_attributions]

    def private_args(self) -> Sequence[BlockArgument]:
        first = len(self.function_type.inputs) + self.num_workgroup_attributions
        return self.body.blocks[0].args[first:]

    @classmethod
    def parse(cls, parser: Parser) -> GPUFuncOp:
        return parse_func(cls, parser)

    def print(self, printer: Printer) -> None:
        print_func(self, printer)

    def verify_(self) -> None:
        for name in self.PRINTED_PROPERTIES:
            attr = self.properties.get(name)
            if isinstance(attr, DenseArrayBase) and (
                len(attr) != 3 or any(v < 1 for v in attr.get_values())
            ):
                raise VerifyException(
                    f"attribute '{name}' failed to satisfy constraint: i32 dense array "
                    "attribute with 3 elements (if present) and all elements >= 1"
                )
        ftype = self.function_type
        if self.kernel is not None and ftype.outputs.data:
            raise VerifyException("expected void return type for kernel function")
        if not self.body.blocks:
            raise VerifyException("expected body with at least one block")
        args = self.body.blocks[0].args
        needed = len(ftype.inputs) + self.num_workgroup_attributions
        if len(args) < needed:
            raise VerifyException(f"expected at least {needed} arguments to body region")
        for i, (want, arg) in enumerate(zip(ftype.inputs.data, args)):
            if want != arg.type:
                raise VerifyException(
                    f"expected body region argument #{i} to be of type {want}, got {arg.type}"
                )
        _attributions(self, self.workgroup_args(), AddressSpace.WORKGROUP)
        _attributions(self, self.private_args(), AddressSpace.PRIVATE)


@irdl_op_definition
class ReturnOp(IRDLOperation):
    """Terminator of ``gpu.func`` bodies."""

    name = "gpu.return"

    values = var_operand_def()

    traits = traits_def(IsTerminator(), HasParent(GPUFuncOp), Pure())
    assembly_format = "attr-dict ($values^ `:` type($values))?"

    def verify_(self) -> None:
        func = self.parent_op()
        while func is not None and not isinstance(func, GPUFuncOp):
            func = func.parent_op()
        if func is None:
            return
        results = func.function_type.outputs.data
        if len(results) != len(self.values):
            raise VerifyException(f"expected {len(results)} result operands")
        for i, (want, value) in enumerate(zip(results, self.values)):
            if want != value.type:
                raise VerifyException(f"unexpected type `'{value.type}'' for operand #{i}")


@irdl_op_definition
class LaunchOp(IRDLOperation):
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
    asyncToken = opt_result_def(AsyncTokenType)
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
        return parse_launch(cls, parser)

    def print(self, printer: Printer) -> None:
        print_launch(self, printer)

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
        _attributions(self, wg, AddressSpace.WORKGROUP)
        _attributions(self, args[first + len(wg) :], AddressSpace.PRIVATE)
        for block in self.body.blocks:
            last = block.last_op
            if last is None or last.successors:
                continue
            if not isinstance(last, TerminatorOp):
                raise VerifyException(
                    "expected 'gpu.terminator' or a terminator with successors "
                    f"(found '{last.name}' in 'gpu.launch' body region)"
                )


@irdl_op_definition
class TerminatorOp(IRDLOperation):
    """Terminator of ``gpu.launch`` bodies."""

    name = "gpu.terminator"

    traits = traits_def(IsTerminator(), HasParent(LaunchOp), Pure())
    assembly_format = "attr-dict"


@irdl_custom_directive
class LaunchDimType(CustomDirective):
    """``(`:` type)?`` after the launch sizes; ``index`` when absent."""

    dim_type: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        t = parser.parse_type() if parser.parse_optional_punctuation(":") else IndexType()
        self.dim_type.set(state, [t])

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        (t,) = self.dim_type.get(op)
        printer.print_string(" ")
        if not isinstance(t, IndexType):
            printer.print_string(": ")
            printer.print_attribute(t)
        state.should_emit_space = True
        state.last_was_punctuation = False

    def is_present(self, op: IRDLOperation) -> bool:
        return True


@irdl_custom_directive
class LaunchFuncOperands(CustomDirective):
    """``(`args` `(` (%v `:` type),* `)`)?``: the kernel's operands."""

    operands: VariadicOperandVariable
    types: TypeDirective

    def parse(self, parser: Parser, state: ParsingState) -> None:
        values: list[UnresolvedOperand] = []
        types: list[Attribute] = []
        if parser.parse_optional_keyword("args") is not None:

            def element() -> None:
                values.append(parser.parse_unresolved_operand())
                parser.parse_punctuation(":")
                types.append(parser.parse_type())

            parser.parse_comma_separated_list(parser.Delimiter.PAREN, element)
        self.operands.set(state, values)
        self.types.set(state, types)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(" ")
        values = self.operands.get(op)
        if values:
            printer.print_string("args(")
            printer.print_list(values, lambda v: _print_typed_value(printer, v))
            printer.print_string(")")
        state.should_emit_space = True
        state.last_was_punctuation = False

    def is_present(self, op: IRDLOperation) -> bool:
        return True


def _print_typed_value(printer: Printer, value: object) -> None:
    from xdsl.ir import SSAValue

    assert isinstance(value, SSAValue)
    printer.print_operand(value)
    printer.print_string(" : ")
    printer.print_attribute(value.type)


@irdl_op_definition
class LaunchFuncOp(IRDLOperation):
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
    asyncToken = opt_result_def(AsyncTokenType)

    irdl_options = (AttrSizedOperandSegments(as_property=True),)
    custom_directives = (AsyncDependencies, LaunchDimType, LaunchFuncOperands)
    assembly_format = (
        "custom<AsyncDependencies>(type($asyncToken), $asyncDependencies) "
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
            raise VerifyException(f"referenced kernel '{_symref(self.kernel)}' is not a function")
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


@irdl_custom_directive
class OffloadingHandler(CustomDirective):
    """``(`<` attr `>`)?``; absent means ``#gpu.select_object``."""

    handler: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        handler: Attribute = SelectObjectAttr()
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        self.handler.set(state, handler)

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        printer.print_string(" ")
        handler = self.handler.get(op)
        if handler is not None and handler != SelectObjectAttr():
            printer.print_string("<")
            printer.print_attribute(handler)
            printer.print_string(">")
        state.should_emit_space = True
        state.last_was_punctuation = False

    def is_present(self, op: IRDLOperation) -> bool:
        return True


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """``gpu.binary @name <#handler>? [#gpu.object<...>, ...]``: compiled GPU
    objects, what ``gpu-module-to-binary`` turns a ``gpu.module`` into."""

    name = "gpu.binary"

    sym_name = prop_def(SymbolNameConstraint())
    offloadingHandler = opt_prop_def(Attribute)
    objects = prop_def(ArrayAttr[ObjectAttr])

    traits = traits_def(SymbolOpInterface())
    custom_directives = (OffloadingHandler,)
    assembly_format = "$sym_name custom<OffloadingHandler>($offloadingHandler) attr-dict $objects"

    def verify_(self) -> None:
        if not self.objects.data:
            raise VerifyException(
                "attribute 'objects' failed to satisfy constraint: an array of GPU "
                "object attributes with at least 1 elements"
            )


KERNEL_OPS: tuple[type[IRDLOperation], ...] = (
    GPUModuleOp,
    GPUFuncOp,
    ReturnOp,
    LaunchOp,
    TerminatorOp,
    LaunchFuncOp,
    BinaryOp,
)
