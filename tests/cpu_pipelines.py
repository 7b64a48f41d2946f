"""What the tests of lower-to-cpu's optimizing passes share: the plain
(scalar) pipeline to compare against, the same pipeline with one pass added
where lower-to-cpu runs it, running a pipeline to text, and a compile cache
of the test module's own."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from mlkit.api import compile as compile_api
from mlkit.passes.pipelines.lower_to_cpu import LowerToCPU

# lower-to-cpu with neither the micro-kernels nor the vectorizer: scalar loops
PLAIN = "builtin.module(lower-to-cpu{microkernels=false vectorize=false})"


def with_pass(pass_text: str) -> str:
    """The plain pipeline with ``pass_text`` right after buffer deallocation."""
    steps = LowerToCPU(microkernels=False, vectorize=False).pipeline()
    anchor = "buffer-deallocation-pipeline,"
    assert anchor in steps
    return f"builtin.module({steps.replace(anchor, anchor + pass_text + ',', 1)})"


def lowered(text: str, pipeline: str) -> str:
    """The module after ``pipeline``, printed."""
    from mlkit.context import make_context
    from mlkit.pipeline.manager import PassRunner, PipelineBuilder
    from mlkit.plugins import default_registry
    from mlkit.syntax.parser import parse_module
    from mlkit.syntax.printer import print_op

    registry = default_registry()
    ctx = make_context(registry)
    module = parse_module(ctx, text, "<test>")
    PassRunner(ctx).run(PipelineBuilder(registry).parse(pipeline, top_anchor="builtin.module"), module)
    return print_op(module)


@pytest.fixture(scope="module", autouse=True)
def own_compile_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """A disk cache of the module's own, so no test reads another's entries."""
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("MLKIT_CACHE_DIR", str(tmp_path_factory.mktemp("mlkit-cache")))
        compile_api.default_compiler().cache.clear()
        yield
    compile_api.default_compiler().cache.clear()
