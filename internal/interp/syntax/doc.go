// Package syntax is the interpreter's front end: it parses a program with
// github.com/tdewolff/parse/v2/js, recovers source positions for the nodes
// that can fail at run time, reports the early errors the parser misses, and
// rejects valid JavaScript that lies outside the supported language.
//
// Parse runs four steps over the source:
//
//  1. tdewolff parses it (Inline mode: top-level await and return). When
//     that fails only because of import/export declarations, the error is an
//     UnsupportedSyntax; when it fails on an arrow parameter list whose
//     nested defaults hold literals (a tdewolff bug), the defaults are
//     wrapped in parentheses and the source is parsed again. Otherwise, in
//     ModeAsyncBody, the source is read as TypeScript (typescript.go):
//     package tsstrip overwrites its types with spaces, keeping every offset,
//     and the blanked text is parsed; Program.Source stays the text as
//     given. A program that parses as JavaScript is never blanked.
//     A program with no statements is a ParseError ("source is empty") in
//     ModeAsyncBody.
//  2. Positions: the AST has none, so a source-order walk of the tree is
//     aligned with the lexer's tokens (see positions.go). Program.Pos gives
//     where a node starts, Program.ErrorPos where V8 reports a run-time error
//     in it, and Program.IdentPos where an identifier is used by a node.
//     Lines are 1-based; columns are 1-based UTF-16 code units, as node
//     prints them.
//  3. Token-level errors the tree cannot show (a stray ';' before else,
//     class fields on one line, a trailing comma after a rest element).
//  4. A checker walk (checks*.go, scope.go) reports ECMAScript early errors
//     as KindParseError and unsupported features (with, modules, import(),
//     import.meta, eval, the Function constructor) as
//     KindUnsupportedSyntax, each at the offending node's position.
//
// Every error returned by Parse is an *Error.
//
// Known limits: in ModeScript, await is still a keyword at the top level
// (tdewolff has no script goal); identifier characters newer than Go's
// Unicode tables are rejected; regular expression literals are checked for
// their flags, the u-mode rules and by compiling them with regexp2, except
// Script property escapes naming scripts newer than Go's tables. A few
// valid forms tdewolff rejects remain errors: ++x ** 2, yield before a
// template's middle part, "get" followed on the next line by "*m(){}" in a
// class, and "continue" followed by ";" on the next line before else.
package syntax
