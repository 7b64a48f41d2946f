"""Helpers the dialect packages share, one module per concern.

Upstream's ODS gives every op the same verifier wording and parses and prints
attribute dictionaries, type lists and operand lists the same way; xDSL's IRDL
leaves each dialect to do that itself. These modules hold the one copy of each
such piece that mlkit's dialects use: :mod:`.ods` (op definition with
upstream's verifier wording); :mod:`.attr_dict`, :mod:`.type_lists`,
:mod:`.signatures`, :mod:`.operand_lists`, :mod:`.regions` and
:mod:`.directives` (custom syntax); :mod:`.op_classes` (ops made from a table),
:mod:`.dialects` (xDSL's dialects with mlkit's classes swapped in),
:mod:`.dynamic_sizes` (mixed static and dynamic sizes and their lists),
:mod:`.symbols` (upstream's symbol verifier) and :mod:`.enums` (enums several
dialects store or write alike).

Nothing here imports a dialect, so every dialect may import it.
"""
