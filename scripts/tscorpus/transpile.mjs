// Compiles one TypeScript program of the TypeScript corpus to JavaScript with
// the TypeScript compiler (pinned in package-lock.json) and prints it:
//
//   node scripts/tscorpus/transpile.mjs FILE.ts > FILE.js
//
// A program is the body of an async function (top-level await and return),
// compiled as an ES module for ES2022 (native class fields, as codemode's
// language has them). Any syntax diagnostic fails the compilation. The
// `export {};` the compiler appends to a module whose only imports were
// type-only is removed: the body of a function cannot export.
import { readFileSync } from 'node:fs';
import ts from 'typescript';

const file = process.argv[2];
const source = readFileSync(file, 'utf8');
const out = ts.transpileModule(source, {
  fileName: file,
  reportDiagnostics: true,
  compilerOptions: {
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    useDefineForClassFields: true,
    removeComments: false,
  },
});
if (out.diagnostics.length > 0) {
  for (const d of out.diagnostics) {
    process.stderr.write(`${file}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}\n`);
  }
  process.exit(1);
}
process.stdout.write(out.outputText.replace(/^export \{\};\n?/m, ''));
