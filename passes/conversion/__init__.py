"""Dialect conversions, one module per upstream conversion pass."""
