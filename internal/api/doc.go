// Package api serves codemode's HTTP API (api/openapi.yaml): thin handlers implementing the
// strict server interface generated into internal/api/gen, wrapped in middleware for bearer
// auth, body size limits, request validation against the spec, and Prometheus metrics. The
// handlers translate between the generated models and internal/durable. The same handlers
// serve /mcp, the service as an MCP server (mcp.go): execute creates runs through CreateRun,
// get_run reads them through GetRun, search reads the catalog as GET /v1/catalog does.
package api
