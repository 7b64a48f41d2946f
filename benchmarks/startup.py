"""Start-up cost of mlkit-opt against xdsl-opt, measured in the same run.

The lit suite starts mlkit-opt hundreds of times, so start-up matters. Reports
CPU time (user + system) per run, which is steadier than wall time on a busy
machine, and the ratio mlkit/xdsl. Usage: python benchmarks/startup.py [RUNS]
"""

from __future__ import annotations

import os
import resource
import shutil
import subprocess
import sys
import tempfile


def cpu_per_run(cmd: list[str], runs: int) -> float:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return used / runs


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 20
    with tempfile.TemporaryDirectory() as tmp:
        empty = os.path.join(tmp, "empty.mlir")
        with open(empty, "w") as f:
            f.write("builtin.module {}\n")
        tools = {name: shutil.which(name) for name in ("mlkit-opt", "xdsl-opt")}
        times: dict[str, float] = {}
        for name, path in tools.items():
            if path is None:
                print(f"{name}: not found")
                continue
            cpu_per_run([path, empty], 2)  # warm the file cache
            times[name] = cpu_per_run([path, empty], runs)
            print(f"{name:10s} {times[name] * 1000:7.1f} ms CPU per run (empty module, {runs} runs)")
        if len(times) == 2:
            print(f"ratio mlkit-opt / xdsl-opt: {times['mlkit-opt'] / times['xdsl-opt']:.2f}")


if __name__ == "__main__":
    main()
