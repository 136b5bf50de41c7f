package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
)

// nullFieldsKey is the context key of the top-level fields a PATCH request's JSON body sets to
// null (see withNullFields).
type nullFieldsKey struct{}

// withNullFields notes which top-level fields of a PATCH request's JSON object are null, for
// the handlers (setToNull): the generated decoding makes a null field look absent, while a
// PATCH removes a field with null (as JSON merge patch does, RFC 7396). The body is passed on
// as it was.
func withNullFields(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPatch || r.Body == nil || r.Body == http.NoBody {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(r.Body) // bounded: limitBody
		r.Body = io.NopCloser(bytes.NewReader(body))
		var fields map[string]json.RawMessage
		if err == nil && json.Unmarshal(body, &fields) == nil {
			var nulls []string
			for name, value := range fields {
				if string(value) == "null" {
					nulls = append(nulls, name)
				}
			}
			if nulls != nil {
				r = r.WithContext(context.WithValue(r.Context(), nullFieldsKey{}, nulls))
			}
		}
		next.ServeHTTP(w, r)
	})
}

// setToNull says whether the request's body sets field to null (see withNullFields).
func setToNull(ctx context.Context, field string) bool {
	nulls, _ := ctx.Value(nullFieldsKey{}).([]string)
	return slices.Contains(nulls, field)
}
