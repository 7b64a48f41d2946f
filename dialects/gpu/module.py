"""Containers of GPU code: ``gpu.module``, which holds kernels as IR, and
``gpu.binary``, which holds them compiled (what ``gpu-module-to-binary``
turns a module into), with upstream's syntax and verifiers.

xDSL 0.75's ``gpu.module`` has no custom syntax (``gpu.module @m {...}`` does
not parse) and lacks upstream's targets and offloading handler; xDSL has no
``gpu.binary``.
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, StringAttr, SymbolNameConstraint
from xdsl.ir import Attribute, Block, Region
from xdsl.irdl import IRDLOperation, irdl_op_definition, opt_prop_def, prop_def, region_def
from xdsl.irdl import traits_def
from xdsl.irdl.declarative_assembly_format import AttributeVariable, CustomDirective, ParsingState
from xdsl.irdl.declarative_assembly_format import PrintingState, RegionVariable
from xdsl.irdl.declarative_assembly_format import irdl_custom_directive
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import IsolatedFromAbove, NoTerminator, SymbolTable
from xdsl.utils.exceptions import VerifyException

from mlkit.dialects.gpu.attrs import ObjectAttr, SelectObjectAttr
from mlkit.dialects.utils.directives import SpacedDirective
from mlkit.dialects.utils.symbols import UpstreamSymbol

CONTAINER_MODULE_ATTR = "gpu.container_module"
"""The unit attribute of a ``builtin.module`` holding GPU modules and binaries."""
KERNEL_FUNC_ATTR = "gpu.kernel"
"""The unit attribute of a function in a GPU module that is a kernel."""


@irdl_custom_directive
class ModuleTargets(SpacedDirective):
    """``([#target, ...])?`` of ``gpu.module``. A directive rather than
    ``($targets^)?`` so that the body's ``{`` is never read as a dictionary."""

    targets: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        if parser._current_token.text != "[":  # pyright: ignore[reportPrivateUsage]
            return
        self.targets.set(state, parser.parse_attribute())

    def print(self, printer: Printer, state: PrintingState, op: IRDLOperation) -> None:
        if (targets := self.targets.get(op)) is not None:
            super().print(printer, state, op)

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        printer.print_attribute(self.targets.get(op))  # pyright: ignore[reportArgumentType]

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

    traits = traits_def(IsolatedFromAbove(), NoTerminator(), UpstreamSymbol(), SymbolTable())
    custom_directives = (ModuleTargets, ModuleBody)
    assembly_format = (
        "$sym_name (`<` $offloadingHandler^ `>`)? custom<ModuleTargets>($targets) "
        "attr-dict-with-keyword custom<ModuleBody>($bodyRegion)"
    )

    def __init__(
        self, name: str, targets: Sequence[Attribute] = (), body: Region | None = None
    ) -> None:
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


@irdl_custom_directive
class OffloadingHandler(SpacedDirective):
    """``(`<` attr `>`)?``; absent means ``#gpu.select_object``."""

    handler: AttributeVariable

    def parse(self, parser: Parser, state: ParsingState) -> None:
        handler: Attribute = SelectObjectAttr()
        if parser.parse_optional_punctuation("<") is not None:
            handler = parser.parse_attribute()
            parser.parse_punctuation(">")
        self.handler.set(state, handler)

    def print_body(self, printer: Printer, op: IRDLOperation) -> None:
        handler = self.handler.get(op)
        if handler is not None and handler != SelectObjectAttr():
            printer.print_string("<")
            printer.print_attribute(handler)
            printer.print_string(">")


@irdl_op_definition
class BinaryOp(IRDLOperation):
    """``gpu.binary @name <#handler>? [#gpu.object<...>, ...]``: compiled GPU
    objects, what ``gpu-module-to-binary`` turns a ``gpu.module`` into."""

    name = "gpu.binary"

    sym_name = prop_def(SymbolNameConstraint())
    offloadingHandler = opt_prop_def(Attribute)
    objects = prop_def(ArrayAttr[ObjectAttr])

    traits = traits_def(UpstreamSymbol())
    custom_directives = (OffloadingHandler,)
    assembly_format = "$sym_name custom<OffloadingHandler>($offloadingHandler) attr-dict $objects"

    def verify_(self) -> None:
        if not self.objects.data:
            raise VerifyException(
                "attribute 'objects' failed to satisfy constraint: an array of GPU "
                "object attributes with at least 1 elements"
            )
