"""Kernel structure of mlkit's ``gpu`` dialect, gathered: the containers
(:mod:`.module`: ``gpu.module``, ``gpu.binary``), GPU functions
(:mod:`.func`: ``gpu.func``, ``gpu.return``) and launches (:mod:`.launch`:
``gpu.launch``, ``gpu.terminator``, ``gpu.launch_func``).

Passes and the translation reach these ops through this module.
"""

from __future__ import annotations

from xdsl.irdl import IRDLOperation

from mlkit.dialects.gpu.func import GPUFuncOp, ReturnOp
from mlkit.dialects.gpu.launch import LaunchFuncOp, LaunchOp, TerminatorOp
from mlkit.dialects.gpu.module import CONTAINER_MODULE_ATTR, KERNEL_FUNC_ATTR, BinaryOp
from mlkit.dialects.gpu.module import GPUModuleOp

__all__ = [
    "CONTAINER_MODULE_ATTR",
    "KERNEL_FUNC_ATTR",
    "KERNEL_OPS",
    "BinaryOp",
    "GPUFuncOp",
    "GPUModuleOp",
    "LaunchFuncOp",
    "LaunchOp",
    "ReturnOp",
    "TerminatorOp",
]

KERNEL_OPS: tuple[type[IRDLOperation], ...] = (
    GPUModuleOp,
    GPUFuncOp,
    ReturnOp,
    LaunchOp,
    TerminatorOp,
    LaunchFuncOp,
    BinaryOp,
)
