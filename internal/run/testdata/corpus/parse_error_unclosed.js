function f() {
  return [1, 2;
}
