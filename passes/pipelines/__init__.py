"""mlkit's named pass pipelines (``lower-to-cpu``, ...), registered in
``mlkit.passes.register`` like the passes."""
