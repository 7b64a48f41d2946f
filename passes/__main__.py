"""``python -m mlkit.passes``: regenerate ``catalogue.json`` from the tables."""

from mlkit.passes import CATALOGUE, catalogue_text

CATALOGUE.write_text(catalogue_text())
print(f"wrote {CATALOGUE}")
