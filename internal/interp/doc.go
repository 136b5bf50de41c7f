// Package interp is codemode's JavaScript interpreter: a strict-mode subset of ECMAScript
// compiled to bytecode and run on a VM whose whole state is plain data, so that a running
// program can be encoded into a snapshot at any safe point and continued in another process.
//
// interp performs no I/O. Host functions (tools, console, clocks) are injected by the embedder.
// A program has no module system: import declarations, import() and require take a global by
// its Node module name (module.go; Config.Modules lists the embedder's globals).
package interp
