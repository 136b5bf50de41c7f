// Package openapi makes tools of an OpenAPI 3.0 or 3.1 document: each operation the package
// supports becomes a tool whose call is the operation's HTTP request (docs/toolsets.md, the
// OpenAPI section, is the user's description of the rules below).
//
// Parse reads a document once, at registration: it returns a manifest in the tool protocol's
// form (internal/toolset), which the API stores and the catalog renders like any other, and a
// Source, the operations the tools call (method, path template, parameters), stored with the
// toolset without credentials. Load makes the run.Tools of a stored manifest and Source; the
// worker applies the toolset's Auth to every request. The package knows nothing of SQL.
//
// Naming. An operationId is split into segments at "." and "/" (so "pets.list" and
// "repos/list-for-org" make namespaces); in each segment the characters that cannot appear in
// an identifier separate words joined in camelCase ("list-for-org" → "listForOrg"), and a
// leading digit is prefixed with "_". An operation without an operationId is named by its
// method and path: "get" followed by each path segment capitalised, a parameter segment as
// "By" and its name (GET /pets/{petId}/photos → getPetsByPetIdPhotos). Operations are named
// in path order, then method order (get, put, post, delete, options, head, patch, trace);
// a name already taken, or one that is the namespace of another tool, gets "_2", "_3"… until
// it is free.
//
// Signatures. The input is one object: the path, query and header parameters as properties
// (the required ones required) and the JSON request body as the property "body" (required
// when the body is), so that a parameter and a body field never collide. The output is the
// schema of the first 2xx response with a JSON body (a text body is a string; no body is
// null). Component schemas ($ref "#/components/schemas/X") become "$defs" of each tool's
// schema, so that each schema is self-contained; other references accept any value. Input
// schemas leave out readOnly properties and output schemas writeOnly ones, at every depth
// and through references. OpenAPI 3.0's nullable and boolean exclusiveMinimum/Maximum are
// rewritten in JSON Schema 2020-12 terms, which the runtime validates.
//
// Not tools (Skipped, with the reason): operations with a request body that is not JSON
// (unless its schema is an object without properties that allows no others: there is nothing
// to send, and the tool sends no body),
// cookie parameters, parameters described by "content" or styled other than simple (path,
// header), form or deepObject (query; name[key]=value, and name[]=item for arrays), responses that are server-sent events or binary, and parameter
// names that collide.
//
// The library is github.com/getkin/kin-openapi: it loads 3.0 and 3.1 documents in JSON or
// YAML into plain Go structs with every local $ref resolved (refs to other documents are
// refused, so a document cannot make the service fetch anything), it is maintained, and the
// API server already validates its own requests with it (internal/api), so the service
// depends on one OpenAPI library, not two. pb33f/libopenapi models the
// document at a lower level (high and low models, ordered maps, its own index) that this
// package, which only walks operations and converts schemas, does not need.
package openapi
