"""Running compiled code in this process: the JIT (:mod:`.jit`) and the
resolution of the symbols it needs (:mod:`.symbols`), and the object code it
generated, kept for a cache (:mod:`.objects`)."""
