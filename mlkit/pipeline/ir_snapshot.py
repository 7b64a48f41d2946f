"""A cheap record of what verification depends on, to skip re-verifying IR
that a pass left as it was.

Upstream's pass manager skips the ``--verify-each`` verification after a pass
that preserved all analyses, since such a pass cannot have changed the IR.
xDSL passes do not report what they preserve, so mlkit compares a snapshot
taken after the last successful verification with one taken after the pass:
in ``lower-to-cpu`` most passes find nothing to do on a given program, and a
snapshot costs a fraction of a verification.

A snapshot lists, in walk order, every op, its operands, result types,
successors, attribute and property names and values, and every block with its
argument types, with the counts that delimit them. It holds the objects
themselves, so none of them can be freed and its address reused while the
snapshot lives. Two snapshots are compared with ``==``: list equality takes
each entry as the same object or an equal value, in C (attributes are
immutable values, so an equal one verifies alike; IR objects are equal only
to themselves).
"""

from __future__ import annotations

from xdsl.ir import Operation

Snapshot = list[object]


def snapshot(root: Operation) -> Snapshot:
    """The verification-relevant content of ``root`` and everything in it."""
    out: Snapshot = []
    add = out.append
    extend = out.extend
    stack = [root]
    while stack:
        op = stack.pop()
        attributes, properties = op.attributes, op.properties
        # xDSL's own tuples: its ``operands``/``successors`` build a view per call
        operands, successors, regions = op._operands, op._successors, op.regions  # pyright: ignore[reportPrivateUsage]
        add(op)
        add((len(operands), len(successors), len(attributes), len(properties), len(regions)))
        extend(operands)
        extend([result.type for result in op.results])
        if successors:
            extend(successors)
        if attributes:
            extend(attributes.items())
        if properties:
            extend(properties.items())
        for region in regions:
            add(region)
            for block in region.blocks:
                add(block)
                add(len(block.args))
                extend([arg.type for arg in block.args])
                ops = list(block.ops)
                add(len(ops))
                stack.extend(reversed(ops))
    return out
