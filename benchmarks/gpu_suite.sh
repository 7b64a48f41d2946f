#!/usr/bin/env bash
# The GPU suite, for a machine with an NVIDIA GPU (under 8 minutes): the
# tests that need the GPU, then matmul f32 4096^2 against cuBLAS, an
# elementwise chain against a plain device copy and a row sum, as ratios.
#   benchmarks/gpu_suite.sh [--quick]
# Needs: pip install -e '.[gpu-bench,test]' (cuda-bindings, nvidia-cublas-cu12).
# Without a usable GPU it says so and exits 1 before running anything.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=${PYTHON:-python}
if ! "$PY" -c 'import sys; from mlkit.runtime import cuda; sys.exit(0 if cuda.available() else 1)'; then
  echo "gpu_suite: needs an NVIDIA GPU with its driver and cuda-bindings (pip install -e '.[gpu-bench,test]'); none is usable here" >&2
  exit 1
fi
echo "== GPU tests"
timeout 300 "$PY" -m pytest -q tests/test_cuda_gpu.py tests/test_cuda_runtime.py tests/test_gpu_host.py
echo "== GPU benchmarks"
timeout 240 "$PY" benchmarks/gpu_suite.py "$@"
