"""lit configuration: runs mlkit's FileCheck tests with the installed tools.

Tools come from the Python environment lit runs in (the one mlkit is installed
into), so ``lit lit_tests`` tests what ``pip install`` produced.
"""

import os
import shutil
import sys

import lit.formats

config.name = "mlkit"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["Inputs", "lit.cfg.py"]
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

bin_dir = os.path.dirname(sys.executable)
config.environment["PATH"] = os.pathsep.join([bin_dir, os.environ.get("PATH", "")])
for var in ("HOME", "TMPDIR", "MLKIT_CACHE_DIR"):
    if var in os.environ:
        config.environment[var] = os.environ[var]


def tool(name: str) -> str:
    path = shutil.which(name, path=bin_dir) or shutil.which(name)
    if path is None:
        lit_config.fatal(f"cannot find '{name}'; install mlkit with: pip install -e '.[test]'")
    return path


# Whole-word substitutions, so option names that contain a tool's name are left alone.
# `not` is lit's own built-in; it stays as written.
for name in ("mlkit-opt", "mlkit-run", "mlkit-translate"):
    config.substitutions.append((rf"(?<![\w/.-]){name}(?![\w.-])", tool(name)))
filecheck = tool("filecheck")
config.substitutions.append((r"(?<![\w/.-])(filecheck|FileCheck)(?![\w.-])", filecheck))
config.substitutions.append(("%python", sys.executable))

# GPU tests assemble the PTX they emit with NVIDIA's ptxas (CUDA toolkit) where it is installed.
if shutil.which("ptxas"):
    config.available_features.add("ptxas")
if shutil.which("fatbinary"):
    config.available_features.add("fatbinary")

# Integration tests that run kernels need a usable CUDA GPU (cuda-python, driver, device).
try:
    from mlkit.runtime import cuda as _cuda

    if _cuda.available():
        config.available_features.add("cuda-gpu")
except Exception:  # noqa: BLE001 - a broken CUDA install means no GPU tests
    pass
