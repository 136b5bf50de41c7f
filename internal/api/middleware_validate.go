package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

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
			if status, code, msg := unusableParameter(route, r, params); status != 0 {
				writeError(w, status, code, msg)
				return
			}
			if msg := jsonBodyProblem(route, r); msg != "" {
				writeError(w, http.StatusBadRequest, CodeInvalidRequest, msg)
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
		reason := schemaErr.Reason
		// A number past float64's range (1e400) is refused by the validator in its own
		// terms, which name no rule the client broke.
		if n, ok := schemaErr.Value.(json.Number); ok && errors.Is(schemaErr.Origin, strconv.ErrRange) {
			reason = fmt.Sprintf("the number %s is out of range", n)
		}
		return where + ": " + reason
	}
	if reqErr.Parameter != nil {
		return fmt.Sprintf("%s parameter %s: %v", reqErr.Parameter.In, reqErr.Parameter.Name, reqErr.Err)
	}
	return reqErr.Error()
}

// unusableParameter refuses the operation's path, query and header parameters that are not
// UTF-8 text or hold U+0000: PostgreSQL cannot compare or store them, and would fail the
// query. A path parameter names something, and such a name names nothing: 404. A query or
// header parameter is a bad request: 400. Status 0 when every parameter is usable.
func unusableParameter(route *routers.Route, r *http.Request, pathParams map[string]string) (int, string, string) {
	var declared openapi3.Parameters
	if route.PathItem != nil {
		declared = append(declared, route.PathItem.Parameters...)
	}
	if route.Operation != nil {
		declared = append(declared, route.Operation.Parameters...)
	}
	// A malformed pair would be dropped (a filter ignored, a limit defaulted): refuse it.
	query, err := url.ParseQuery(r.URL.RawQuery)
	if err != nil {
		return http.StatusBadRequest, CodeInvalidRequest, "malformed query string: " + err.Error()
	}
	for _, ref := range declared {
		p := ref.Value
		if p == nil {
			continue
		}
		var values []string
		switch p.In {
		case openapi3.ParameterInPath:
			values = []string{pathParams[p.Name]}
		case openapi3.ParameterInQuery:
			values = query[p.Name]
		case openapi3.ParameterInHeader:
			values = r.Header.Values(p.Name)
		}
		for _, v := range values {
			if utf8.ValidString(v) && !strings.ContainsRune(v, 0) {
				continue
			}
			if p.In == openapi3.ParameterInPath {
				return http.StatusNotFound, CodeNotFound, fmt.Sprintf("path parameter %s %s names nothing: it is not UTF-8 text, or holds U+0000", p.Name, strconv.QuoteToASCII(v))
			}
			return http.StatusBadRequest, CodeInvalidRequest, fmt.Sprintf("%s parameter %s: not UTF-8 text, or holds U+0000", p.In, p.Name)
		}
	}
	return 0, "", ""
}

// jsonBodyProblem refuses a JSON request body that is not UTF-8 (RFC 8259, section 8.1; the
// decoders would silently replace the bytes with U+FFFD, changing code and input) or holds
// more than one JSON value ({"code":"1"}{}: the decoders read the first value only and would
// silently drop the rest). Malformed bodies are left to the validator, which names the error.
// "" when the body is fine.
func jsonBodyProblem(route *routers.Route, r *http.Request) string {
	if route.Operation == nil || route.Operation.RequestBody == nil || r.Body == nil || r.Body == http.NoBody {
		return ""
	}
	if mt, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mt != "application/json" {
		return ""
	}
	body, err := io.ReadAll(r.Body) // bounded: limitBody read it already
	if err != nil {
		return ""
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	if !utf8.Valid(body) {
		return "request body is not UTF-8"
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	var first json.RawMessage
	if dec.Decode(&first) != nil {
		return ""
	}
	end := dec.InputOffset()
	if _, err := dec.Token(); err != io.EOF {
		return fmt.Sprintf("request body has more after its JSON value (after byte %d)", end)
	}
	return ""
}
