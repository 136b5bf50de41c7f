package run

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
)

// Extension values in a saved state. The functions of an extension's own Value are host
// functions found again by id; the values its functions returned that hold functions are
// listed in the header, each with its extension, its name and, when the extension has
// snapshot hooks, the data its Encode gave (written as taggedData). A value saved without
// data is lost: calling its functions throws a TypeError after the restore.

// extValueJSON is one value in the header.
type extValueJSON struct {
	ID   int64           `json:"id"`
	Ext  string          `json:"ext"`
	Name string          `json:"name"`
	Data json.RawMessage `json:"data,omitempty"`
}

// encodeExtValues writes the run's extension values, calling Encode once per value.
func (e *Execution) encodeExtValues() ([]extValueJSON, error) {
	ids := make([]int64, 0, len(e.extValues))
	for id := range e.extValues {
		ids = append(ids, id)
	}
	slices.Sort(ids)
	out := make([]extValueJSON, 0, len(ids))
	for _, id := range ids {
		v := e.extValues[id]
		j := extValueJSON{ID: id, Ext: v.ext.Name, Name: v.name}
		if hooks := v.ext.Snapshot; hooks != nil && !v.lost {
			data, err := hooks.Encode(v.value)
			if err != nil {
				return nil, fmt.Errorf("%w: extension %q cannot encode the value of %s: %v", ErrExtensionState, v.ext.Name, v.name, err)
			}
			raw, err := encodeTagged(data, 0)
			if err != nil {
				return nil, fmt.Errorf("%w: extension %q encoded the value of %s as %v", ErrExtensionState, v.ext.Name, v.name, err)
			}
			j.Data = raw
		}
		out = append(out, j)
	}
	return out, nil
}

// restoreExtValues rebuilds the extension values of a state, calling Decode once per value
// that has data. Data needs an extension of the same name with snapshot hooks.
func (e *Execution) restoreExtValues(vals []extValueJSON, next int64) error {
	e.extValues = map[int64]*extValue{}
	e.nextExtValue = next
	for _, j := range vals {
		ext := e.rt.exts.byName[j.Ext]
		if j.Data == nil {
			if ext == nil {
				ext = &Extension{Name: j.Ext}
			}
			e.putExtValue(j.ID, &extValue{ext: ext, name: j.Name, lost: true})
			continue
		}
		if ext == nil || ext.Snapshot == nil {
			return &SnapshotError{Message: fmt.Sprintf("the state holds a value of extension %q (%s) saved by its snapshot hooks; this runtime has no extension %q with snapshot hooks", j.Ext, j.Name, j.Ext)}
		}
		data, err := decodeTagged(j.Data)
		if err != nil {
			return &SnapshotError{Message: fmt.Sprintf("value of extension %q (%s): %v", j.Ext, j.Name, err)}
		}
		v, err := ext.Snapshot.Decode(data)
		if err != nil {
			return &SnapshotError{Message: fmt.Sprintf("extension %q cannot decode the value of %s: %v", j.Ext, j.Name, err)}
		}
		funcs := map[string]*Func{}
		if err := walkFuncs(v, "", 0, func(path string, f *Func) error { funcs[path] = f; return nil }); err != nil {
			return &SnapshotError{Message: fmt.Sprintf("extension %q decoded the value of %s: %v", j.Ext, j.Name, err)}
		}
		e.putExtValue(j.ID, &extValue{ext: ext, name: j.Name, value: v, funcs: funcs})
	}
	return nil
}

// checkExtCalls fails when asynchronous extension calls are in progress: they live in this
// process only, so a state saved now would wait for them forever.
func (e *Execution) checkExtCalls() error {
	if names := e.extInFlight(); len(names) > 0 {
		return fmt.Errorf("%w: extension calls in progress: %s", ErrExtensionState, strings.Join(names, ", "))
	}
	return nil
}

// encodeChecked is encode for a state that is stored: it fails while extension calls are in
// progress.
func (e *Execution) encodeChecked() (SavedState, error) {
	if err := e.checkExtCalls(); err != nil {
		return SavedState{}, err
	}
	return e.encode()
}

// Tagged data: the JSON form of Encode's data, which may hold byte arrays. Objects are
// written {"o": {...}}, byte arrays {"b": "<base64>"}, and arrays and scalars as they are,
// so that the two wrappers cannot be mistaken for each other or for data.

func encodeTagged(v any, depth int) (json.RawMessage, error) {
	if depth > MaxValueDepth {
		return nil, fmt.Errorf("data nested more than %d levels deep", MaxValueDepth)
	}
	switch x := v.(type) {
	case []byte:
		return json.Marshal(map[string]string{"b": base64.StdEncoding.EncodeToString(x)})
	case map[string]any:
		o := make(map[string]json.RawMessage, len(x))
		for k, el := range x {
			raw, err := encodeTagged(el, depth+1)
			if err != nil {
				return nil, err
			}
			o[k] = raw
		}
		return json.Marshal(map[string]any{"o": o})
	case []any:
		a := make([]json.RawMessage, len(x))
		for i, el := range x {
			raw, err := encodeTagged(el, depth+1)
			if err != nil {
				return nil, err
			}
			a[i] = raw
		}
		return json.Marshal(a)
	case nil, bool, string, float64, float32, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, json.Number:
		return json.Marshal(x)
	}
	return nil, fmt.Errorf("%s, which is not plain data (nil, bool, numbers, string, []byte, []any, map[string]any)", reflect.TypeOf(v))
}

func decodeTagged(raw json.RawMessage) (any, error) {
	var v any
	dec := json.NewDecoder(strings.NewReader(string(raw)))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	return untag(v)
}

func untag(v any) (any, error) {
	switch x := v.(type) {
	case json.Number:
		return x.Float64()
	case []any:
		for i, el := range x {
			u, err := untag(el)
			if err != nil {
				return nil, err
			}
			x[i] = u
		}
		return x, nil
	case map[string]any:
		if b, ok := x["b"].(string); ok && len(x) == 1 {
			return base64.StdEncoding.DecodeString(b)
		}
		o, ok := x["o"].(map[string]any)
		if !ok || len(x) != 1 {
			return nil, fmt.Errorf("malformed data")
		}
		for k, el := range o {
			u, err := untag(el)
			if err != nil {
				return nil, err
			}
			o[k] = u
		}
		return o, nil
	}
	return v, nil
}
