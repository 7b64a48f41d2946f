builtin.module attributes {test.attr} {
  func.func @g() {
    return
  }
}
