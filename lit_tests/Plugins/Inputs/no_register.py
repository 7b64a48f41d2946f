"""A module that forgot to define register(registry)."""
X = 1
