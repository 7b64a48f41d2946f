func.func @a()
func.func @b()
