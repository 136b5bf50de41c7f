// Package syntax is the interpreter's front end: it parses a program with
// github.com/tdewolff/parse/v2/js, recovers source positions for the nodes
// that can fail at run time, reports the early errors the parser misses, and
// rejects valid JavaScript that lies outside the supported language.
package syntax
