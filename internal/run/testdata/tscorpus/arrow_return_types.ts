const double = (x: number): number => x * 2;
const pair = <A, B>(a: A, b: B): [A, B] => [a, b];
const isEven = (n: number): boolean => n % 2 === 0;
const compose = <T,>(...fns: Array<(x: T) => T>) => (x: T): T => fns.reduceRight((acc, f) => f(acc), x);
const inc = (x: number) => x + 1;
return { d: double(21), p: pair("x", 1), e: [1, 2, 3, 4].filter(isEven), c: compose(double, inc)(5) };
