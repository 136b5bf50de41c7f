package api

//go:generate go tool oapi-codegen -config gen/config.yaml ../../api/openapi.yaml
