package interp

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/codemode/codemode/internal/interp/numconv"
)

// The JSON global (parse with reviver, stringify with replacer and indent) and the embedding
// API's JSON crossing (VM.FromJSON, VM.ToData).

func init() { registerBuiltin("JSON", 20, setupJSON) }

func setupJSON(r *Realm) {
	o := r.vm.newObject(r.ObjectPrototype, ClassObject)
	r.addIntrinsic("JSON", o)
	r.method(o, "parse", 2, jsonParse)
	r.method(o, "stringify", 3, jsonStringify)
	r.value(o, symKey(symToStringTag), asciiValue("JSON"), propConfigurable)
	r.defineGlobal("JSON", objectValue(o))
}

// jsonParse is JSON.parse(text, reviver).
func jsonParse(vm *VM, c NativeCall) Value {
	text := vm.toString(c.Arg(0)).wtf8()
	v, serr := vm.parseJSONText(text)
	if serr != nil {
		vm.throwSyntaxError("%s", serr.message(text))
	}
	reviver := c.Arg(1)
	if !IsCallable(reviver) {
		return v
	}
	root := vm.newPlainObject()
	vm.createDataProperty(root, strKey(""), v)
	return vm.internalizeJSON(root, strKey(""), reviver, 0)
}

// internalizeJSON is InternalizeJSONProperty: the reviver walk, bottom-up.
func (vm *VM) internalizeJSON(holder *Object, name PropertyKey, reviver Value, depth int) Value {
	if depth > jsonMaxDepth {
		vm.throwRangeError("Maximum call stack size exceeded")
	}
	val := vm.getProp(holder, name)
	if o := val.asObject(); o != nil {
		if vm.isArray(val) {
			n := vm.lengthOfArrayLike(o)
			for i := int64(0); i < n; i++ {
				k := vm.indexToKey(i)
				vm.reviveElement(o, k, vm.internalizeJSON(o, k, reviver, depth+1))
			}
		} else {
			for _, k := range vm.ownPropertyKeys(o) {
				if k.isSymbol() {
					continue
				}
				if p, ok := vm.getOwnProperty(o, k); !ok || !p.Enumerable {
					continue
				}
				vm.reviveElement(o, k, vm.internalizeJSON(o, k, reviver, depth+1))
			}
		}
	}
	return vm.Call(reviver, objectValue(holder), name.toValue(), val)
}

func (vm *VM) reviveElement(o *Object, k PropertyKey, v Value) {
	if v.IsUndefined() {
		vm.deleteProperty(o, k)
		return
	}
	vm.createDataProperty(o, k, v)
}

// jsonSerializer holds the state of one JSON.stringify (SerializeJSONProperty and friends).
type jsonSerializer struct {
	vm       *VM
	b        stringBuilder
	replacer Value            // callable or undefined
	allow    []PropertyKey    // property list from an array replacer, or nil
	gap      string           // indent unit
	indent   string           // current indentation
	stack    []*Object        // objects being serialized (cycle detection)
	keys     []jsonKey        // keys[i] leads from stack[i] to stack[i+1] (or to the value being written)
	maxDepth int              // 0 = unlimited (JSON.stringify); the embedding API sets it
	fail     func(msg string) // how to report cycles and depth: a TypeError or a host error
	// data is the plain-data contract of values leaving the program (VM.ToData): what
	// JSON.stringify would silently drop or empty fails instead, errors become {name, message}.
	data bool
	path []string // with data: the keys from the root to the value being written
	// bigInt is set when the serializer itself threw for a BigInt (ToData returns that
	// TypeError as the *Exception it is).
	bigInt bool
}

// jsonStringify is JSON.stringify(value, replacer, space).
func jsonStringify(vm *VM, c NativeCall) Value {
	s := &jsonSerializer{vm: vm}
	s.fail = func(msg string) { vm.throwTypeError("%s", msg) }
	s.setReplacer(c.Arg(1))
	s.setGap(c.Arg(2))
	wrapper := vm.newPlainObject()
	vm.createDataProperty(wrapper, strKey(""), c.Arg(0))
	if !s.property(wrapper, strKey(""), c.Arg(0)) {
		return undefinedValue
	}
	return stringValue(vm.chargeString(s.b.string()))
}

func (s *jsonSerializer) setReplacer(r Value) {
	vm := s.vm
	if IsCallable(r) {
		s.replacer = r
		return
	}
	if !vm.isArray(r) {
		return
	}
	o := r.obj()
	n := vm.lengthOfArrayLike(o)
	seen := map[PropertyKey]bool{}
	s.allow = []PropertyKey{}
	for i := int64(0); i < n; i++ {
		v := vm.getIndex(o, i)
		var item *jsString
		switch {
		case v.kind == KindString:
			item = v.str()
		case v.kind == KindNumber:
			item = vm.toString(v)
		case v.kind == KindObject && (v.obj().class == ClassString || v.obj().class == ClassNumber):
			item = vm.toString(v)
		default:
			continue
		}
		k := jsStringKey(item)
		if !seen[k] {
			seen[k] = true
			s.allow = append(s.allow, k)
		}
	}
}

func (s *jsonSerializer) setGap(space Value) {
	vm := s.vm
	if o := space.asObject(); o != nil {
		switch o.class {
		case ClassNumber:
			space = Number(vm.toNumber(space))
		case ClassString:
			space = stringValue(vm.toString(space))
		}
	}
	switch space.kind {
	case KindNumber:
		n := vm.toIntegerOrInfinity(space)
		if n > 10 {
			n = 10
		}
		if n >= 1 {
			s.gap = strings.Repeat(" ", int(n))
		}
	case KindString:
		g := space.str()
		if g.Len() > 10 {
			g = g.substring(0, 10)
		}
		s.gap = g.wtf8()
	}
}

// property serializes holder[key] (whose value is v) and reports whether anything was written
// (false for undefined, functions and symbols).
func (s *jsonSerializer) property(holder *Object, key PropertyKey, v Value) bool {
	vm := s.vm
	if v.kind == KindObject || v.kind == KindBigInt {
		if toJSON := vm.getV(v, strKey("toJSON")); IsCallable(toJSON) {
			v = vm.Call(toJSON, v, key.toValue())
		}
	}
	if s.replacer.kind != KindUndefined {
		v = vm.Call(s.replacer, objectValue(holder), key.toValue(), v)
	}
	if o := v.asObject(); o != nil {
		switch o.class {
		case ClassNumber:
			v = Number(vm.toNumber(v))
		case ClassString:
			v = stringValue(vm.toString(v))
		case ClassBoolean, ClassBigInt:
			v = o.slots.(Value)
		}
	}
	if s.data {
		v = s.plainData(v)
	}
	switch v.kind {
	case KindNull:
		s.b.putASCII("null")
	case KindBool:
		if v.num != 0 {
			s.b.putASCII("true")
		} else {
			s.b.putASCII("false")
		}
	case KindString:
		appendJSONQuote(&s.b, v.str())
	case KindNumber:
		if !math.IsNaN(v.num) && !math.IsInf(v.num, 0) {
			if s.b.isWide {
				s.b.putASCII(numberToString(v.num))
			} else {
				s.b.ascii = numconv.AppendNumber(s.b.ascii, v.num)
			}
		} else {
			s.b.putASCII("null")
		}
	case KindBigInt:
		s.bigInt = true
		vm.throwTypeError("Do not know how to serialize a BigInt")
	case KindObject:
		if v.obj().isCallable() {
			return false
		}
		if vm.isArray(v) {
			s.array(v.obj())
		} else {
			s.object(v.obj())
		}
	default:
		return false
	}
	// The text is a string: it obeys the string length cap, checked as it grows so that a
	// large value fails before its whole text is built.
	if s.b.len() > maxStringLength {
		vm.throwRangeError("Invalid string length")
	}
	return true
}

func (s *jsonSerializer) enter(o *Object) {
	for i, x := range s.stack {
		if x == o {
			s.fail(s.circularMessage(i))
		}
	}
	if s.maxDepth > 0 && len(s.stack) >= s.maxDepth {
		s.fail(fmt.Sprintf("value nests deeper than %d levels", s.maxDepth))
	}
	if len(s.stack) >= jsonMaxDepth {
		s.vm.throwRangeError("Maximum call stack size exceeded")
	}
	s.stack = append(s.stack, o)
}

func (s *jsonSerializer) leave() { s.stack = s.stack[:len(s.stack)-1] }

// jsonKey is a key being written: an array index or an object's property.
type jsonKey struct {
	k     PropertyKey
	index bool
}

// circularMessage is V8's TypeError message for a cycle that closes at stack[start]: the
// path from that object back to itself, at most the first two and the last of its middle
// steps, each with the object's constructor name. Programs and their authors read it (node
// prints it with the error).
func (s *jsonSerializer) circularMessage(start int) string {
	var b strings.Builder
	key := func(k jsonKey) {
		switch {
		case k.index:
			b.WriteString("index " + k.k.name)
		case k.k.name == "":
			b.WriteString("<anonymous>")
		default:
			b.WriteString("property '" + k.k.name + "'")
		}
	}
	ctor := func(o *Object) {
		name := (*inspector)(nil).constructorName(o)
		if name == "" {
			name = "Object"
		}
		b.WriteString("'" + name + "'")
	}
	b.WriteString("Converting circular structure to JSON\n    --> starting at object with constructor ")
	ctor(s.stack[start])
	line := func(j int) {
		b.WriteString("\n    |     ")
		key(s.keys[j-1])
		b.WriteString(" -> object with constructor ")
		ctor(s.stack[j])
	}
	first, last := start+1, len(s.stack)
	if last-first > 3 {
		line(first)
		line(first + 1)
		b.WriteString("\n    |     ...")
		first = last - 1
	}
	for j := first; j < last; j++ {
		line(j)
	}
	b.WriteString("\n    --- ")
	key(s.keys[len(s.keys)-1])
	b.WriteString(" closes the circle")
	return b.String()
}

func (s *jsonSerializer) newline() {
	if s.gap == "" {
		return
	}
	s.b.writeUnit('\n')
	s.b.writeGo(s.indent)
}

func (s *jsonSerializer) object(o *Object) {
	vm := s.vm
	s.enter(o)
	defer s.leave()
	stepback := s.indent
	s.indent += s.gap
	keys := s.allow
	if keys == nil {
		keys = s.enumerableKeys(o)
	}
	s.b.writeUnit('{')
	wrote := false
	for _, k := range keys {
		v := vm.getProp(o, k)
		mark := s.b.len()
		if wrote {
			s.b.writeUnit(',')
		}
		s.newline()
		appendJSONQuote(&s.b, newStringFromGo(k.name))
		s.b.writeUnit(':')
		if s.gap != "" {
			s.b.writeUnit(' ')
		}
		s.push(k, false)
		if s.property(o, k, v) {
			wrote = true
		} else {
			s.truncate(mark)
		}
		s.pop()
	}
	s.indent = stepback
	if wrote {
		s.newline()
	}
	s.b.writeUnit('}')
}

// enumerableKeys lists o's own enumerable string keys in property order.
func (s *jsonSerializer) enumerableKeys(o *Object) []PropertyKey {
	keys := s.vm.ownPropertyKeys(o)
	out := keys[:0]
	for _, k := range keys {
		if k.isSymbol() {
			continue
		}
		if p, ok := s.vm.getOwnProperty(o, k); ok && p.Enumerable {
			out = append(out, k)
		}
	}
	return out
}

// truncate drops what was written after mark (a property that serialized to nothing).
func (s *jsonSerializer) truncate(mark int) {
	if s.b.isWide {
		s.b.utf16 = s.b.utf16[:mark]
	} else {
		s.b.ascii = s.b.ascii[:mark]
	}
}

func (s *jsonSerializer) array(o *Object) {
	vm := s.vm
	s.enter(o)
	defer s.leave()
	stepback := s.indent
	s.indent += s.gap
	n := vm.lengthOfArrayLike(o)
	s.b.writeUnit('[')
	for i := int64(0); i < n; i++ {
		if i > 0 {
			s.b.writeUnit(',')
		}
		s.newline()
		k := vm.indexToKey(i)
		var v Value
		if i < int64(len(o.elems)) && !o.elems[i].isHole() {
			v = o.elems[i]
		} else {
			v = vm.getProp(o, k)
		}
		s.push(k, true)
		if !s.property(o, k, v) {
			s.b.putASCII("null")
		}
		s.pop()
	}
	s.indent = stepback
	if n > 0 {
		s.newline()
	}
	s.b.writeUnit(']')
}

// errNotJSON is the reason a top-level value has no JSON form (undefined, a function, a symbol).
var errNotJSON = errors.New("the value has no JSON form")

// ToData copies v out of the program as JSON under the plain-data contract (see
// builtin_json_data.go); root names the value in messages ("result", "input"). A value that
// is not data, a cycle, nesting deeper than maxDepth (0: unlimited) or a value with no JSON
// form is a *Diagnostic of kind "InvalidDataValue"; an exception thrown by a toJSON method or
// getter is returned as one too. A BigInt without a toJSON is the TypeError JSON.stringify
// throws ("Do not know how to serialize a BigInt"), returned as the *Exception itself so that
// the host can throw it where the value left the program.
func (vm *VM) ToData(v Value, maxDepth int, root string) (out []byte, err error) {
	type hostFail struct{ msg string }
	s := &jsonSerializer{vm: vm, maxDepth: maxDepth}
	defer func() {
		if r := recover(); r != nil {
			switch e := r.(type) {
			case hostFail:
				err = &Diagnostic{Kind: "InvalidDataValue", Message: e.msg}
			case *Exception:
				if s.bigInt {
					err = e
					return
				}
				err = &Diagnostic{Kind: "InvalidDataValue", Message: "copying the value as JSON threw: " + vm.describeValue(e.Value)}
			default:
				panic(r)
			}
		}
	}()
	s.fail = func(msg string) { panic(hostFail{msg}) }
	s.data, s.path = true, []string{root}
	wrapper := vm.newPlainObject()
	vm.createDataProperty(wrapper, strKey(""), v)
	if !s.property(wrapper, strKey(""), v) {
		return nil, &Diagnostic{Kind: "InvalidDataValue", Message: errNotJSON.Error()}
	}
	return []byte(s.b.string().String()), nil
}

// FromJSON makes a value from JSON text (exactly JSON.parse without a reviver).
func (vm *VM) FromJSON(data []byte) (v Value, err error) {
	defer vm.catchException(&err)
	text := string(data)
	v, serr := vm.parseJSONText(text)
	if serr != nil {
		return undefinedValue, fmt.Errorf("invalid JSON: %s", serr.message(text))
	}
	return v, nil
}
