package api

import (
	"encoding/json"

	"github.com/codemode/codemode/internal/api/gen"
	"github.com/codemode/codemode/internal/durable"
	"github.com/codemode/codemode/internal/toolcall"
)

func toRun(r durable.Run) gen.Run {
	out := gen.Run{
		Id:         r.ID,
		Status:     gen.RunStatus(r.Status),
		Code:       r.Code,
		CreatedAt:  r.CreatedAt,
		UpdatedAt:  r.UpdatedAt,
		FinishedAt: r.FinishedAt,
		Pending:    make([]gen.Call, 0, len(r.Pending)),
	}
	_ = json.Unmarshal(r.Limits, &out.Limits)
	if r.Toolsets != nil {
		ts := r.Toolsets
		out.Toolsets = &ts
	}
	if r.Input != nil {
		in := json.RawMessage(r.Input)
		out.Input = &in
	}
	if r.Webhook != nil && r.Webhook.URL != "" {
		out.Webhook = &struct {
			Url string `json:"url"`
		}{Url: r.Webhook.URL}
	}
	if result := rawObject(r.Result); result != nil {
		out.Result = &result
	}
	for _, c := range r.Pending {
		out.Pending = append(out.Pending, toCall(c))
	}
	return out
}

func toCall(c durable.Call) gen.Call {
	out := gen.Call{
		CallId:    c.CallID,
		Key:       c.Key,
		Path:      c.Path,
		Durable:   c.Durable,
		Status:    gen.CallStatus(c.Status),
		StartedAt: c.StartedAt,
		SettledAt: c.SettledAt,
		Args:      rawToAny(c.Args),
	}
	if len(c.Handle) > 0 {
		out.Handle = rawToAny(c.Handle)
	}
	if c.Outcome != nil {
		o := toOutcome(*c.Outcome)
		out.Outcome = &o
	}
	return out
}

func toOutcome(o toolcall.Outcome) gen.Outcome {
	out := gen.Outcome{Ok: o.OK}
	if len(o.Value) > 0 {
		out.Value = rawToAny(o.Value)
	}
	if o.Error != nil {
		out.Error = &struct {
			Message string `json:"message"`
		}{Message: o.Error.Message}
	}
	return out
}

func fromOutcome(o gen.Outcome) (toolcall.Outcome, error) {
	out := toolcall.Outcome{OK: o.Ok}
	if o.Value != nil {
		raw, err := json.Marshal(*o.Value)
		if err != nil {
			return out, err
		}
		out.Value = raw
	} else if o.Ok {
		out.Value = json.RawMessage("null")
	}
	if o.Error != nil {
		out.Error = &toolcall.OutcomeError{Message: o.Error.Message}
	}
	return out, nil
}

// rawToAny is a stored JSON document as an Any the API writes back verbatim, so that every
// object in it keeps the key order its program or toolset gave it (decoded into Go maps, the
// keys would come back sorted); nil when raw is empty or not JSON.
func rawToAny(raw json.RawMessage) *gen.Any {
	if len(raw) == 0 || !json.Valid(raw) {
		return nil
	}
	a := gen.Any(raw)
	return &a
}

// rawObject is a stored JSON object as the map the generated types want, each of its values
// kept as its JSON text, so that they are written back verbatim (see rawToAny): only the
// object's own keys are sorted when it is written. nil when raw is not a JSON object.
func rawObject(raw []byte) map[string]any {
	var fields map[string]json.RawMessage
	if len(raw) == 0 || json.Unmarshal(raw, &fields) != nil || fields == nil {
		return nil
	}
	out := make(map[string]any, len(fields))
	for k, v := range fields {
		out[k] = v
	}
	return out
}

// manifest is a toolset manifest (docs/tool-protocol.md).
type manifest struct {
	Tools      []gen.ToolDescriptor `json:"tools"`
	Namespaces []gen.Namespace      `json:"namespaces,omitempty"`
}

func toToolset(t durable.Toolset) gen.Toolset {
	var m manifest
	_ = json.Unmarshal(t.Manifest, &m)
	if m.Tools == nil {
		m.Tools = []gen.ToolDescriptor{}
	}
	hasSecret, hasAuth := t.Secret != "", len(t.Auth) > 0
	kind := gen.ToolsetKind(t.Kind)
	if kind == "" {
		kind = gen.ToolsetKindHttp
	}
	out := gen.Toolset{
		Name: t.Name, Url: t.URL, Description: t.Description, Tools: m.Tools,
		CreatedAt: t.CreatedAt, HasSecret: &hasSecret, Kind: &kind, HasAuth: &hasAuth,
	}
	if kind == gen.ToolsetKindOpenapi {
		// The operations that are not tools; the source's other fields stay internal.
		var src struct {
			Skipped []gen.SkippedOperation `json:"skipped"`
		}
		_ = json.Unmarshal(t.Source, &src)
		if src.Skipped == nil {
			src.Skipped = []gen.SkippedOperation{}
		}
		out.Skipped = &src.Skipped
	}
	if m.Namespaces != nil {
		out.Namespaces = &m.Namespaces
	}
	return out
}
