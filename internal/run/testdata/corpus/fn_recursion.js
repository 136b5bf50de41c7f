function fib(n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
const fact = function f(n) { return n <= 1 ? 1 : n * f(n - 1); };
function isEven(n) { return n === 0 ? true : isOdd(n - 1); }
function isOdd(n) { return n === 0 ? false : isEven(n - 1); }
return [fib(20), fact(10), isEven(100), isOdd(7)];
