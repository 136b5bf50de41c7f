// Package tsstrip turns a TypeScript program into the JavaScript program it
// stands for by overwriting the type-only text with spaces, so that every
// remaining character keeps its byte offset, line and column: the parser,
// the compiler's source positions and every run-time error then point at the
// text the author wrote, without any position mapping.
//
// What is blanked: type annotations (variables, parameters including the
// optional mark, return types, class fields, catch bindings), `as` and
// `satisfies` expressions, the non-null `!`, definite assignment marks,
// type parameters and type arguments of calls and `new`, `this`
// parameters, type-only declarations (`type`, `interface`, `declare ...`,
// function and method overload signatures, abstract members, index
// signatures), type-only imports and exports, `implements` clauses and the
// modifiers `public`, `private`, `protected`, `readonly`, `override` and
// `abstract`. A blanked declaration or class member starts with a semicolon
// (an empty statement or class element), so that it still ends what comes
// before it; so does a blanked `as T`, `satisfies T` or `!` that ends a line
// when the next line starts with `(`, `[`, a template, `+`, `-` or `/`, where
// TypeScript ends the statement and JavaScript would continue it.
//
// What is refused, as an *Error at the offending keyword: syntax with a
// run-time meaning that plain JavaScript lacks (enums, namespaces and
// modules holding values, parameter properties, decorators, `import x =`
// and `export =`).
//
// Why a blanker on tdewolff's lexer rather than a TypeScript compiler: the
// interpreter already parses with tdewolff/parse, so this package needs only
// its lexer and a recursive walk that knows where types may appear; it adds no
// dependency, and blanking keeps positions exact. A transpiler such as
// esbuild's Transform reformats the program (positions would have to go
// through its source map, whose granularity is coarser than the error
// positions the interpreter reports) and accepts enums and namespaces
// silently, turning them into code the program never showed. The walk is not
// a type checker and does not validate types: it only finds where a type
// starts and ends; the stripped text is parsed by tdewolff afterwards, so a
// mistake shows as a parse error, not as a silently different program.
//
// The caller decides when to strip: the front end strips only a program that
// does not parse as JavaScript, so a JavaScript program never changes
// meaning (TypeScript reads `f<T>(x)` as a call with a type argument; a
// program that is valid JavaScript keeps JavaScript's reading, two
// comparisons) and costs nothing more.
package tsstrip
