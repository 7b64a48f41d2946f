"""Regenerate the torch-mlir exports next to this file (needs torch and torch-mlir):

    python tests/data/torch_mlir/export.py

For each model, ``NAME.mlir`` is torch-mlir's linalg-on-tensors output
(``torch_mlir.fx.export_and_import``) and ``NAME.npz`` holds the inputs
(``arg0``, ``arg1``, ...) and torch's outputs for them (``out0``, ...), all
from a fixed seed. ``tests/test_torch_mlir.py`` runs them through mlkit
without torch, and exports ``MODELS`` live when torch is installed.
"""

from __future__ import annotations

import pathlib
from collections.abc import Callable
from typing import Any

import numpy as np
import torch
from torch import nn
from torch_mlir import fx

HERE = pathlib.Path(__file__).resolve().parent


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fc1 = nn.Linear(4, 8)
        self.fc2 = nn.Linear(8, 3)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fc2(torch.relu(self.fc1(x)))


class ConvBlock(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.conv = nn.Conv2d(2, 4, kernel_size=3, padding=1)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.pool(torch.relu(self.conv(x)))


class SoftmaxLayerNorm(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(6)
        nn.init.normal_(self.norm.weight)
        nn.init.normal_(self.norm.bias)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(self.norm(x), dim=-1)


class BatchNormPool(nn.Module):
    """BatchNorm2d in eval mode (running statistics), global average pooling."""

    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.BatchNorm2d(3)
        with torch.no_grad():
            self.norm.running_mean.normal_()
            self.norm.running_var.uniform_(0.5, 2.0)
            self.norm.weight.normal_()
            self.norm.bias.normal_()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return nn.functional.adaptive_avg_pool2d(self.norm(x), 1).flatten(1)


class Attention(nn.Module):
    def forward(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        return nn.functional.scaled_dot_product_attention(q, k, v)


def _mlp_dynamic() -> tuple[nn.Module, tuple[torch.Tensor, ...], dict[str, Any]]:
    return MLP().eval(), (torch.randn(2, 4),), {"x": {0: torch.export.Dim("batch")}}


# name -> () -> (model in eval mode, inputs, dynamic_shapes for torch.export or None)
MODELS: dict[str, Callable[[], tuple[nn.Module, tuple[torch.Tensor, ...], Any]]] = {
    "mlp": lambda: (MLP().eval(), (torch.randn(2, 4),), None),
    "mlp_dynamic": _mlp_dynamic,
    "conv_block": lambda: (ConvBlock().eval(), (torch.randn(1, 2, 6, 6),), None),
    "softmax_layernorm": lambda: (SoftmaxLayerNorm().eval(), (torch.randn(3, 6),), None),
    "batchnorm_pool": lambda: (BatchNormPool().eval(), (torch.randn(2, 3, 4, 4),), None),
    "attention": lambda: (Attention().eval(), tuple(torch.randn(1, 2, 4, 8) for _ in range(3)), None),
}

# inputs for the saved outputs where they differ from the export's example inputs
TEST_INPUTS: dict[str, Callable[[], tuple[torch.Tensor, ...]]] = {
    "mlp_dynamic": lambda: (torch.randn(5, 4),),  # another batch size than the example's
}


def build(name: str) -> tuple[nn.Module, tuple[torch.Tensor, ...], Any]:
    """Model ``name`` with its example inputs, the same on every call."""
    torch.manual_seed(0)
    return MODELS[name]()


def export(model: nn.Module, inputs: tuple[torch.Tensor, ...], dynamic_shapes: Any = None) -> str:
    """torch-mlir's linalg-on-tensors text of ``model`` on ``inputs``."""
    module = fx.export_and_import(
        model, *inputs, output_type="linalg-on-tensors", dynamic_shapes=dynamic_shapes
    )
    return str(module)


def run(model: nn.Module, inputs: tuple[torch.Tensor, ...]) -> list[np.ndarray]:
    """torch's outputs of ``model`` on ``inputs``, as numpy arrays."""
    with torch.no_grad():
        outputs = model(*inputs)
    if isinstance(outputs, torch.Tensor):
        outputs = (outputs,)
    return [t.numpy() for t in outputs]


def main() -> None:
    for name in MODELS:
        model, inputs, dynamic_shapes = build(name)
        text = export(model, inputs, dynamic_shapes)
        if name in TEST_INPUTS:
            inputs = TEST_INPUTS[name]()
        arrays = {f"arg{i}": t.numpy() for i, t in enumerate(inputs)}
        arrays.update({f"out{i}": a for i, a in enumerate(run(model, inputs))})
        (HERE / f"{name}.mlir").write_text(text)
        np.savez(HERE / f"{name}.npz", **arrays)
        print(f"{name}.mlir: {len(text)} bytes")
    print(f"torch {torch.__version__}")


if __name__ == "__main__":
    main()
