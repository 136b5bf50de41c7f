const id1 = <T,>(x: T): T => x;
const id2 = <T extends unknown>(x: T) => x;
const id3 = async <T,>(x: T): Promise<T> => x;
const wrap = <const T extends readonly unknown[]>(...xs: T): T => xs;
const tag = <T,>(strings: TemplateStringsArray, ...vals: T[]): string => strings.raw.join("|") + vals.length;
const t = tag<number>`a${1}b${2}c`;
return [id1<string>("a"), id2(2), await id3(true), wrap(1, "x"), t];
