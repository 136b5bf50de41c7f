// Package gen is generated from api/openapi.yaml by oapi-codegen (see config.yaml and
// internal/api's go:generate line): the chi strict server interface, the models, a Go client
// and the embedded spec. Never edit gen.go by hand; regenerate it.
package gen
