"""``gpu-kernel-outlining``: the body of each ``gpu.launch`` becomes a
``gpu.func`` kernel in its own ``gpu.module``, launched by
``gpu.launch_func``.

Upstream's naming (``KernelOutlining.cpp``): the kernel is
``<enclosing function>_kernel`` and so is its module, made unique in the
symbol table by ``_0``, ``_1``, ... (the module name only; the kernel keeps
its name inside its own module). Modules go right after the function, in
launch order. Constants used in the body are cloned into it rather than
passed (upstream sinks only constant-like ops by default; here also the
``memref.get_global`` of a constant global, so that a kernel reads the
constant from its own module); the globals a kernel uses are copied into its
module, as upstream copies the symbols a kernel references; the launch's block
arguments become ``gpu.block_id``/``thread_id``/``grid_dim``/``block_dim``
ops; constant launch sizes become ``known_block_size``/``known_grid_size``.
The other values the body uses become the kernel's arguments, in the order
of their first use. Upstream's ``data-layout-str`` option is not supported.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

from xdsl.context import Context
from xdsl.dialects import arith, cf, memref
from xdsl.dialects.builtin import DenseArrayBase, FunctionType, IntegerAttr, ModuleOp, StringAttr
from xdsl.dialects.builtin import SymbolRefAttr, UnitAttr, i32, i64
from xdsl.dialects.gpu import DimensionAttr, DimensionEnum
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import ConstantLike, SymbolTable

from mlkit.dialects.gpu import kernel as gpu_kernel

from mlkit.dialects.gpu import ops as gpu_ops
from mlkit.passes.transforms.region_utils import is_defined_inside, used_values_defined_above

_ID_OPS = (gpu_ops.BlockIdOp, gpu_ops.ThreadIdOp, gpu_ops.GridDimOp, gpu_ops.BlockDimOp)


def _is_constant(op: Operation | Block) -> bool:
    return isinstance(op, Operation) and op.has_trait(ConstantLike)


def _is_constant_global(op: Operation | Block, symbols: Operation) -> bool:
    """Whether ``op`` is a ``memref.get_global`` of a ``constant`` global of ``symbols``."""
    if not isinstance(op, memref.GetGlobalOp):
        return False
    found = SymbolTable.lookup_symbol(symbols, op.name_)
    return isinstance(found, memref.GlobalOp) and found.constant is not None


def sink_constants(launch: gpu_kernel.LaunchOp, symbols: Operation) -> None:
    """Clone the constant-like ops whose results the body uses into its entry
    block, and the ``memref.get_global`` of constant globals of ``symbols``
    (whose globals outlining then copies into the kernel's module, so the
    kernel reads device memory rather than the host's)."""
    entry = launch.body.blocks[0]
    for value in used_values_defined_above(launch):
        owner = value.owner
        sinkable = isinstance(owner, Operation) and _is_constant(owner) and not owner.operands
        if sinkable or _is_constant_global(owner, symbols):
            assert isinstance(owner, Operation)
            clone = owner.clone()
            Rewriter.insert_op(clone, InsertPoint.at_start(entry))
            for use in list(value.uses):
                if is_defined_inside(use.operation, launch):
                    use.operation.operands[use.index] = clone.results[value.index]  # type: ignore[attr-defined]


_UINT32_MAX = 2**32 - 1


def _constant_sizes(values: list[SSAValue]) -> DenseArrayBase | None:
    """The ``known_block_size``/``known_grid_size`` hint for constant sizes, as
    upstream's ``maybeConstantDimsAttr`` makes it: none when a size is not a
    constant or exceeds ``uint32_t`` (a negative one reads as a huge unsigned
    value), each stored as the ``int32_t`` with its bits."""
    sizes = []
    for value in values:
        owner = value.owner
        if not isinstance(owner, arith.ConstantOp) or not isinstance(owner.value, IntegerAttr):
            return None
        size = owner.value.value.data
        if not 0 <= size <= _UINT32_MAX:
            return None
        sizes.append(size - 2**32 if size >= 2**31 else size)
    return DenseArrayBase.from_list(i32, sizes)


def outline_kernel(launch: gpu_kernel.LaunchOp, kernel_name: str) -> gpu_kernel.GPUFuncOp:
    """A ``gpu.func`` kernel holding ``launch``'s body (which is moved out)."""
    operands = used_values_defined_above(launch)
    body = launch.body.blocks[0]
    config = body.args[: launch.num_config_args]
    attributions = body.args[launch.num_config_args :]
    entry = Block(arg_types=[v.type for v in operands] + [a.type for a in attributions])
    for index, op_class in enumerate(_ID_OPS):
        for dim, name in enumerate(("x", "y", "z")):
            id_op = op_class.create(
                properties={"dimension": DimensionAttr(DimensionEnum(name))},
                result_types=[config[0].type],
            )
            entry.add_op(id_op)
            config[index * 3 + dim].replace_all_uses_with(id_op.results[0])
    for old, new in zip(attributions, entry.args[len(operands) :]):
        old.replace_all_uses_with(new)
    region = Region(entry)
    blocks = list(launch.body.blocks)
    for block in blocks:
        launch.body.detach_block(block)
    if len(blocks) == 1:
        for op in list(blocks[0].ops):
            op.detach()
            entry.add_op(op)
    else:
        entry.add_op(cf.BranchOp(blocks[0]))
        region.add_block(blocks)
    for block in region.blocks:
        last = block.last_op
        if isinstance(last, gpu_kernel.TerminatorOp):
            Rewriter.replace_op(last, gpu_kernel.ReturnOp.create())
    # body uses of the outside values now refer to the kernel's arguments
    for value, arg in zip(operands, entry.args):
        for use in list(value.uses):
            if region.is_ancestor(use.operation):
                use.operation.operands[use.index] = arg
    props = {
        "function_type": FunctionType.from_lists([v.type for v in operands], []),
        "kernel": UnitAttr(),
    }
    # upstream always states the count, 0 included
    props["workgroup_attributions"] = IntegerAttr(launch.num_workgroup_attributions, i64)
    sizes = [launch.gridSizeX, launch.gridSizeY, launch.gridSizeZ]
    threads = [launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ]
    if (known := _constant_sizes(threads)) is not None:
        props["known_block_size"] = known
    if (known := _constant_sizes(sizes)) is not None:
        props["known_grid_size"] = known
    func = gpu_kernel.GPUFuncOp.create(
        attributes={"sym_name": StringAttr(kernel_name)}, properties=props, regions=[region]
    )
    func.location = launch.location  # upstream builds the kernel at the launch's loc
    return func, operands  # type: ignore[return-value]


def unique_name(table_op: Operation, name: str) -> str:
    """Upstream's ``SymbolTable::insert`` renaming: ``name``, else ``name_0``, ``name_1``..."""
    if SymbolTable.lookup_symbol(table_op, name) is None:
        return name
    counter = 0
    while SymbolTable.lookup_symbol(table_op, f"{name}_{counter}") is not None:
        counter += 1
    return f"{name}_{counter}"


def _referenced_globals(kernel: Operation, symbols: Operation) -> list[memref.GlobalOp]:
    """The ``memref.global`` ops of ``symbols`` that ``kernel`` uses, which
    upstream's outlining copies into the kernel's module with the kernel."""
    found: dict[str, memref.GlobalOp] = {}
    for op in kernel.walk():
        if isinstance(op, memref.GetGlobalOp):
            name = op.name_.string_value()
            global_ = SymbolTable.lookup_symbol(symbols, op.name_)
            if isinstance(global_, memref.GlobalOp):
                found.setdefault(name, global_)
    return list(found.values())


def _launches(op: Operation) -> Iterator[gpu_kernel.LaunchOp]:
    for inner in op.walk():
        if isinstance(inner, gpu_kernel.LaunchOp):
            yield inner


@dataclass(frozen=True)
class GpuKernelOutlining(ModulePass):
    """Outline gpu.launch bodies to kernel functions"""

    name = "gpu-kernel-outlining"
    display_name: ClassVar[str] = "GpuKernelOutliningPass"
    anchor: ClassVar[str] = "builtin.module"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = False
        for func in list(op.ops):
            name = func.properties.get("sym_name") or func.attributes.get("sym_name")
            if not isinstance(name, StringAttr) or isinstance(func, gpu_kernel.GPUModuleOp):
                continue
            insert_at = InsertPoint.after(func)
            for launch in list(_launches(func)):
                sink_constants(launch, op)
                kernel_name = f"{name.data}_kernel"
                kernel, operands = outline_kernel(launch, kernel_name)  # type: ignore[misc]
                module_name = unique_name(op, kernel_name)
                module = gpu_kernel.GPUModuleOp(module_name)
                module.location = kernel.location
                for global_ in _referenced_globals(kernel, op):
                    module.bodyRegion.blocks[0].add_op(global_.clone())
                module.bodyRegion.blocks[0].add_op(kernel)
                Rewriter.insert_op(module, insert_at)
                insert_at = InsertPoint.after(module)
                self._replace_launch(launch, module_name, kernel_name, operands)
                changed = True
        if changed:
            op.attributes[gpu_kernel.CONTAINER_MODULE_ATTR] = UnitAttr()

    @staticmethod
    def _replace_launch(launch: gpu_kernel.LaunchOp, module: str, kernel: str,
                        operands: list[SSAValue]) -> None:
        def opt(value: SSAValue | None) -> list[SSAValue]:
            return [] if value is None else [value]

        call = gpu_kernel.LaunchFuncOp.build(
            operands=[
                list(launch.asyncDependencies),
                launch.gridSizeX, launch.gridSizeY, launch.gridSizeZ,
                launch.blockSizeX, launch.blockSizeY, launch.blockSizeZ,
                opt(launch.clusterSizeX), opt(launch.clusterSizeY), opt(launch.clusterSizeZ),
                opt(launch.dynamicSharedMemorySize), operands, opt(launch.asyncObject),
            ],
            properties={"kernel": SymbolRefAttr(module, [kernel])},
            result_types=[[launch.asyncToken.type] if launch.asyncToken is not None else []],
        )
        Rewriter.replace_op(launch, call)
