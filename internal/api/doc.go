// Package api serves codemode's HTTP API (api/openapi.yaml): thin handlers implementing the
// strict server interface generated into internal/api/gen, wrapped in middleware for bearer
// auth, body size limits, request validation against the spec, and Prometheus metrics. The
// handlers translate between the generated models and internal/durable.
package api
