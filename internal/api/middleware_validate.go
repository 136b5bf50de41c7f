package api

import (
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/legacy"

	"github.com/codemode/codemode/internal/api/gen"
)

// validateRequests checks each request matching an operation of the spec against it (path,
// query and header parameters, body schema) and answers 400 naming the field at fault.
// Requests matching no operation pass through (the router answers 404 or 405). Authentication
// is not checked here (see requireToken).
func validateRequests() (func(http.Handler) http.Handler, error) {
	doc, err := gen.GetSwagger()
	if err != nil {
		return nil, fmt.Errorf("load embedded spec: %w", err)
	}
	doc.Servers = nil // match any host
	router, err := legacy.NewRouter(doc)
	if err != nil {
		return nil, fmt.Errorf("spec router: %w", err)
	}
	opts := &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			route, params, err := router.FindRoute(r)
			// No operation matches (the router answers 404 or 405 itself); the legacy router
			// returns fresh *RouteError values, so match the type, not the sentinels.
			var routeErr *routers.RouteError
			if errors.As(err, &routeErr) {
				next.ServeHTTP(w, r)
				return
			}
			if err != nil {
				writeError(w, http.StatusBadRequest, CodeInvalidRequest, err.Error())
				return
			}
			in := &openapi3filter.RequestValidationInput{Request: r, PathParams: params, Route: route, Options: opts}
			if err := openapi3filter.ValidateRequest(r.Context(), in); err != nil {
				writeError(w, http.StatusBadRequest, CodeInvalidRequest, validationMessage(err))
				return
			}
			next.ServeHTTP(w, r)
		})
	}, nil
}

// validationMessage names the parameter or body field that failed.
func validationMessage(err error) string {
	var reqErr *openapi3filter.RequestError
	if !errors.As(err, &reqErr) {
		return err.Error()
	}
	var schemaErr *openapi3.SchemaError
	if errors.As(reqErr.Err, &schemaErr) {
		field := "/" + strings.Join(schemaErr.JSONPointer(), "/")
		where := "request body field " + field
		if reqErr.Parameter != nil {
			where = reqErr.Parameter.In + " parameter " + reqErr.Parameter.Name
		}
		return where + ": " + schemaErr.Reason
	}
	if reqErr.Parameter != nil {
		return fmt.Sprintf("%s parameter %s: %v", reqErr.Parameter.In, reqErr.Parameter.Name, reqErr.Err)
	}
	return reqErr.Error()
}
