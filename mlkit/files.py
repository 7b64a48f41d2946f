"""Writing an output file whole: to a temporary file beside it, then renamed
over it, so that a reader or a killed process never sees half of it."""

from __future__ import annotations

import os


def write_atomically(path: str, data: bytes) -> None:
    """Replace ``path`` with ``data``; the file gets the mode ``open()`` would
    give a new one (not ``mkstemp``'s 0600). OSError if it cannot be written."""
    import tempfile  # only the tools that write files pay for it

    directory = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=directory, prefix=".mlkit-", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise
