def register(registry)
    pass
