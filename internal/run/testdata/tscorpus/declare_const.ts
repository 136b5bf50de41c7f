declare const process: { env: Record<string, string> };
declare function externalThing(x: number): void;
declare class Foreign { run(): void }
declare namespace Lib { const version: string }
declare global { interface Window { codemode: boolean } }
const values: number[] = [3, 1, 2];
return values.sort((a: number, b: number) => a - b);
