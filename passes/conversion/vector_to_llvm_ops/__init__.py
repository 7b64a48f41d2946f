"""The vector ops ``convert-vector-to-llvm`` lowers in several steps (upstream
first rewrites them to other vector ops; here they go to the llvm dialect in
one pattern each, so that one conversion walk, as ``convert-to-llvm`` runs it,
finishes them): contractions and outer products, masks and transfers, prints."""
