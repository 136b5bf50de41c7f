// Package interp is codemode's JavaScript interpreter: a strict-mode subset of ECMAScript
// compiled to bytecode and run on a VM whose whole state is plain data, so that a running
// program can be encoded into a snapshot at any safe point and continued in another process.
//
// interp performs no I/O. Host functions (tools, console, clocks) are injected by the embedder.
// A program has no module system: import declarations, import() and require take a global by
// its Node module name (module.go; Config.Modules lists the embedder's globals).
//
// # A map of the package
//
// The files fall into six parts, each named by its prefix. Reading them in this order follows
// a program from its text to its result.
//
// The front end lives in subpackages: syntax parses (with tdewolff/parse), checks what the
// language leaves out and reports exact positions; tsstrip blanks TypeScript annotations.
//
// The compiler turns source text into bytecode, in two subpackages whose imports point one
// way (bytecode <- compiler <- interp):
//   - bytecode holds compiled code as plain data: bytecode/opcode.go (the instruction set,
//     append-only: an opcode's meaning never changes), bytecode/bytecode.go (instructions,
//     constants, function kinds, positions, bytecode.Func) and bytecode/fuse.go
//     (superinstructions);
//   - compiler generates it: compiler/compile.go (the entry point and the function being
//     compiled), compiler/compile_scope.go (bindings, registers and environments),
//     compiler/compile_stmt.go, compiler/compile_expr.go, compiler/compile_assign.go
//     (destructuring), compiler/compile_func.go (functions, classes, parameters),
//     compiler/compile_literal.go, compiler/compile_import.go (imports as globals);
//     compiler/codegen_normal.go and compiler/codegen_shift.go switch the generator a test
//     build changes;
//   - program.go (Compile, CompileShared, CompileScript; Program, and FuncCode: a
//     bytecode.Func with the constant values and keys the VM derives from it) and
//     fingerprint.go (the digest of compiled code) are interp's side.
//
// The VM runs bytecode:
//   - vm.go (the VM type, frames and the dispatch loop), vm_ops.go (the operations the loop
//     calls out to), function.go (calls, closures, bound functions), async.go (coroutines:
//     async functions and generators) and generator.go (the generator prototypes), promise.go
//     (promises and the job queue), limits.go (the memory limit; the other bounds are where
//     they are enforced).
//
// The value model:
//   - value.go, value_symbol.go, value_bigint.go (Value and its kinds), string.go (UTF-16
//     strings, ropes), object.go and property.go (objects, classes, property maps),
//     hash_index.go (the hash table behind property and Map indexes), proxy_ops.go (the
//     object operations through a Proxy);
//   - convert.go (ToNumber, ToString, ToPrimitive, ...), operations.go (calls, errors, stack
//     frames), operations_object.go (property access and definition), operations_iterator.go,
//     operations_bigint.go (the spec's abstract operations).
//
// Realms and built-ins:
//   - realm.go (the realm and the registry of built-ins and natives), realm_lazy.go (a new
//     realm creates its intrinsics on first use), realm_share.go (the storage clones of a
//     template intrinsic share), realm_objs.go (a realm's intrinsics by id);
//   - builtin_<global>*.go, one family per global (builtin_array*.go, builtin_typedarray*.go,
//     builtin_console*.go, ...); large ones are split by concern (_snapshot for their codecs,
//     _proto for prototype methods). The WHATWG URL parser is the subpackage whatwgurl, the
//     RegExp engine jsregexp, date arithmetic jsdate, number formatting numconv, the
//     conversions between UTF-16 and WTF-8 (property keys, constants) wtf8.
//
// The snapshot codec writes the heap and the execution state, and reads them back:
//   - snapshot_codec.go (the document and its versions), snapshot_heap*.go (the heap walk,
//     object and slot encoding; every kind of internal slot registers a codec with
//     registerSlotType), snapshot_state.go (closures, frames, promises), snapshot_code.go
//     (compiled code carried in a snapshot);
//   - format 1 is JSON (snapshot_json_read.go, snapshot_json_write.go), format 2 binary
//     (snapshot_bin*.go); snapshot_decode_*.go and snapshot_encode_*.go are shared by both;
//     heap_walk_set.go is the address set of the live-heap walk (also used by limits.go).
//
// The embedding API is api.go (Config, New, Start, Run, Result), api_host.go (host functions
// and promises) and api_diagnostic.go (errors with positions and stacks).
package interp
