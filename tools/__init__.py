"""Thin command-line front ends: argument parsing only; the work is in ``mlkit``."""
