// Recursion: naive Fibonacci.
function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function main() {
  return fib(27);
}
