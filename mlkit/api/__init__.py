"""The embedding API, ``mlkit.compile``: compile MLIR for a target backend
(:mod:`.backend`: cpu, cuda) and call its functions on numpy arrays
(:mod:`.call`, :mod:`.signature`, :mod:`.shapes`), with a compile cache
(:mod:`.cache`) owned by a :class:`~mlkit.api.compile.Compiler`."""
