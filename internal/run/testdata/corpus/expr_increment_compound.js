let a = 5;
const r = [a++, a, ++a, a--, --a];
let s = 'x'; s += 1; s += null;
let n = 10; n -= 3; n *= 2; n /= 4; n %= 2; n **= 3;
let b = 6; b &= 3; b |= 8; b ^= 1; b <<= 2; b >>= 1; b >>>= 1;
const o = { c: 1 }; o.c += 10; o['c'] *= 2;
return [r, s, n, b, o.c];
