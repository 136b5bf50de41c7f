package interp

import (
	"strconv"
	"strings"
)

// The plain-data contract of values leaving a program (a run's result, tool inputs): JSON
// values only. JSON.stringify inside programs keeps its standard behaviour; at the boundary,
// what it would drop or turn into {} without a word is an InvalidDataValue naming the value's
// path instead: a Promise (usually a forgotten await), a function, a symbol, a Map, Set,
// WeakMap or WeakSet. An Error becomes {name, message} plus its own enumerable properties.
// Dates keep their toJSON (an ISO string), and undefined properties are still left out.

// push enters key k of the value being written (data mode only).
func (s *jsonSerializer) push(k PropertyKey, index bool) {
	s.keys = append(s.keys, jsonKey{k, index})
	if s.data {
		s.path = append(s.path, k.name)
	}
}

func (s *jsonSerializer) pop() {
	s.keys = s.keys[:len(s.keys)-1]
	if s.data {
		s.path = s.path[:len(s.path)-1]
	}
}

// pathText writes the current path as a program would: result.items[2].name, result["a b"].
func (s *jsonSerializer) pathText() string {
	var b strings.Builder
	for i, k := range s.path {
		switch {
		case i == 0:
			b.WriteString(k)
		case isArrayIndexText(k):
			b.WriteString("[" + k + "]")
		case isIdentifierText(k):
			b.WriteString("." + k)
		default:
			b.WriteString("[" + strconv.Quote(k) + "]")
		}
	}
	return b.String()
}

// plainData checks v against the contract: it fails for what has no data form and returns the
// data form of an Error; other values are returned as they are.
func (s *jsonSerializer) plainData(v Value) Value {
	switch v.kind {
	case KindSymbol:
		s.fail("a symbol at " + s.pathText() + " is not data")
	case KindObject:
	default:
		return v
	}
	o := v.obj()
	switch {
	case o.class == ClassPromise:
		s.fail("a Promise at " + s.pathText() + " is not data (did you forget await?)")
	case o.isCallable():
		s.fail("a function at " + s.pathText() + " is not data")
	case o.class == ClassMap || o.class == ClassWeakMap:
		s.fail("a Map at " + s.pathText() + " is not data (Object.fromEntries(map) makes an object of it)")
	case o.class == ClassSet || o.class == ClassWeakSet:
		s.fail("a Set at " + s.pathText() + " is not data ([...set] makes an array of it)")
	case o.class == ClassError:
		return s.errorData(o)
	}
	return v
}

// errorData is the data form of an Error: {name, message} and its own enumerable properties.
func (s *jsonSerializer) errorData(o *Object) Value {
	vm := s.vm
	out := vm.newPlainObject()
	vm.createDataProperty(out, strKey("name"), stringValue(vm.toString(vm.getProp(o, strKey("name")))))
	vm.createDataProperty(out, strKey("message"), stringValue(vm.toString(vm.getProp(o, strKey("message")))))
	for _, k := range s.enumerableKeys(o) {
		if k.name == "name" || k.name == "message" {
			continue
		}
		vm.createDataProperty(out, k, vm.getProp(o, k))
	}
	return objectValue(out)
}

func isArrayIndexText(k string) bool {
	if k == "" || (len(k) > 1 && k[0] == '0') {
		return false
	}
	for _, c := range k {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func isIdentifierText(k string) bool {
	if k == "" {
		return false
	}
	for i, c := range k {
		letter := c == '_' || c == '$' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')
		if !letter && (i == 0 || c < '0' || c > '9') {
			return false
		}
	}
	return true
}
