const u = new URL('https://user:pw@example.com:8080/p/a/t/h?query=string&a=1#hash');
const q = new URLSearchParams('a=1&b=2&a=3');
q.append('c', 'x y');
const enc = new TextEncoder().encode('héllo');
const dec = new TextDecoder().decode(new Uint8Array([104, 195, 169]));
const clone = structuredClone({ d: new Date(0), m: new Map([[1, 2]]), arr: [1, { x: 2 }] });
return [u.hostname, u.port, u.pathname, u.search, u.hash, u.searchParams.get('query'), q.getAll('a'), q.toString(), Array.from(enc), dec, btoa('hello'), atob('aGVsbG8='), clone.m.get(1), clone.d instanceof Date, typeof globalThis, globalThis.Math === Math];
