"""Dialect-independent transforms, one module per upstream pass."""
