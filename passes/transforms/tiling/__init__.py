"""Tiling of structured ops: the tiling interface and the ``scf`` drivers over it."""
