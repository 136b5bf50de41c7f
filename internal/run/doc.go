// Package run is code mode on top of the interpreter: it runs a model's
// program against a host's tools and reports a Result.
//
// This package holds the tool model and the pure logic around it, none of
// which depends on the interpreter:
//
//   - Tool, Durable, Namespace and Toolbox (tool.go): the tools a host
//     registers, their dotted paths (dots make nested namespaces), lookup,
//     and the "did you mean" suggestion for an unknown path.
//   - Schema (schema.go): JSON Schemas (drafts 2020-12 and 7, $ref/$defs)
//     compiled once and used to validate tool inputs and outputs, with
//     messages that name the failing location ("input.a: expected number,
//     got string").
//   - Catalog, TypeScript signatures and RenderPrompt (catalog.go): what a
//     model is shown about the tools.
//   - Search (search.go): the deterministic ranking behind the search()
//     built-in.
//   - Limits (limits.go) and Result, Diagnostic, Warning, ToolCallRecord
//     (result.go): what a run may use and what it reports.
//   - Extension, Func and SnapshotHooks (extension*.go): globals of the
//     embedder's own that programs call directly (fetch, fs.readFile), outside
//     the catalog, the call count and the journal, with their hooks
//     (Hooks.ExtensionBefore, Hooks.ExtensionAfter) and the snapshot hooks that
//     carry functions inside returned values across a save and restore. They
//     are also the modules a program imports (import fs from "node:fs"). See
//     docs/embedding.md.
//
// Paths are written two ways. A tool's Path is the registered dotted name
// ("math.add", "context7.resolve-library-id"). AccessPath renders the
// expression a program writes to reach it ("tools.math.add",
// `tools.context7["resolve-library-id"]`); catalogs, search results and
// diagnostics use that form.
package run
