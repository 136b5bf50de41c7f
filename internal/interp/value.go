package interp

import (
	"math"
	"unsafe"
)

// Value representation
//
// A Value is a small struct passed by value: a kind tag, a float64 payload and one pointer.
//
//	kind    num                 ref
//	Undef   -                   nil
//	Null    -                   nil
//	Bool    0 or 1              nil
//	Number  the float64         nil
//	String  -                   *jsString
//	Symbol  -                   *Symbol
//	Object  -                   *Object
//	BigInt  -                   *big.Int (immutable: never changed once in a Value)
//
// Numbers and booleans never allocate, a kind switch is a byte compare, and the struct is 24
// bytes (one word for the tag, the float, and the pointer). The pointer is an unsafe.Pointer so
// that strings, symbols and objects share one field without an interface header; the kind tag
// always says which type it points to and only the accessors below convert it. Values hold no Go
// closures or Go-only state: everything reachable from a Value is plain heap data that the
// snapshot codec can encode.
type Value struct {
	kind Kind
	num  float64
	ref  unsafe.Pointer
}

// Kind is the type tag of a Value: one of the ECMAScript language types.
type Kind uint8

// The kinds of Values. The zero Value is undefined.
const (
	KindUndefined Kind = iota // the undefined value
	KindNull                  // the null value
	KindBool                  // true or false
	KindNumber                // an IEEE 754 double
	KindString                // a UTF-16 string
	KindSymbol                // a Symbol
	KindObject                // an object (functions included)
	kindHole                  // internal: an empty slot of dense array storage; never visible to JS
	kindAccessor              // internal: the value of an accessor Property (its accessorPair)
	KindBigInt                // an arbitrary-precision integer (after the internal kinds: kinds are append-only)
)

// String returns the name of the kind as typeof-like lowercase text ("undefined", "object", ...).
func (k Kind) String() string {
	switch k {
	case KindUndefined:
		return "undefined"
	case KindNull:
		return "null"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindSymbol:
		return "symbol"
	case KindObject:
		return "object"
	case kindHole:
		return "hole"
	case kindAccessor:
		return "accessor"
	case KindBigInt:
		return "bigint"
	}
	return "invalid"
}

// Commonly used constant values.
var (
	undefinedValue = Value{}
	nullValue      = Value{kind: KindNull}
	trueValue      = Value{kind: KindBool, num: 1}
	falseValue     = Value{kind: KindBool}
	holeValue      = Value{kind: kindHole}
	nanValue       = Value{kind: KindNumber, num: math.NaN()}
	zeroValue      = Value{kind: KindNumber}
)

// Undefined returns the undefined value.
func Undefined() Value { return undefinedValue }

// Null returns the null value.
func Null() Value { return nullValue }

// Bool returns true or false.
func Bool(b bool) Value {
	if b {
		return trueValue
	}
	return falseValue
}

// Number returns a number value.
func Number(f float64) Value { return Value{kind: KindNumber, num: f} }

// intValue returns a number value for an integer.
func intValue(i int) Value { return Value{kind: KindNumber, num: float64(i)} }

// stringValue wraps a jsString.
func stringValue(s *jsString) Value { return Value{kind: KindString, ref: unsafe.Pointer(s)} }

// symbolValue wraps a Symbol.
func symbolValue(s *Symbol) Value { return Value{kind: KindSymbol, ref: unsafe.Pointer(s)} }

// objectValue wraps an Object; a nil object gives null.
func objectValue(o *Object) Value {
	if o == nil {
		return nullValue
	}
	return Value{kind: KindObject, ref: unsafe.Pointer(o)}
}

// asciiValue returns a string value from Go text; s may be any UTF-8 (it need not be ASCII).
func asciiValue(s string) Value { return stringValue(newStringFromGo(s)) }

// Kind returns the type tag of v.
func (v Value) Kind() Kind { return v.kind }

// IsUndefined reports whether v is undefined.
func (v Value) IsUndefined() bool { return v.kind == KindUndefined }

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind == KindNull }

// IsNullish reports whether v is undefined or null.
func (v Value) IsNullish() bool { return v.kind <= KindNull }

// IsBool reports whether v is a boolean.
func (v Value) IsBool() bool { return v.kind == KindBool }

// IsNumber reports whether v is a number.
func (v Value) IsNumber() bool { return v.kind == KindNumber }

// IsString reports whether v is a string.
func (v Value) IsString() bool { return v.kind == KindString }

// IsSymbol reports whether v is a symbol.
func (v Value) IsSymbol() bool { return v.kind == KindSymbol }

// IsObject reports whether v is an object (functions included).
func (v Value) IsObject() bool { return v.kind == KindObject }

// BoolValue returns the boolean payload (false unless v is a boolean).
func (v Value) BoolValue() bool { return v.kind == KindBool && v.num != 0 }

// NumberValue returns the number payload (0 unless v is a number).
func (v Value) NumberValue() float64 {
	if v.kind != KindNumber {
		return 0
	}
	return v.num
}

// str returns the string payload; v must be a string.
func (v Value) str() *jsString { return (*jsString)(v.ref) }

// sym returns the symbol payload; v must be a symbol.
func (v Value) sym() *Symbol { return (*Symbol)(v.ref) }

// obj returns the object payload; v must be an object.
func (v Value) obj() *Object { return (*Object)(v.ref) }

// asObject returns the object payload, or nil when v is not an object.
func (v Value) asObject() *Object {
	if v.kind != KindObject {
		return nil
	}
	return (*Object)(v.ref)
}

// isHole reports whether v is the internal marker of an empty array slot.
func (v Value) isHole() bool { return v.kind == kindHole }

// String formats v for debugging (Go's fmt); it never calls into JavaScript.
func (v Value) String() string {
	switch v.kind {
	case KindString:
		return v.str().String()
	case KindNumber:
		return numberToString(v.num)
	case KindBool:
		if v.num != 0 {
			return "true"
		}
		return "false"
	case KindSymbol:
		return v.sym().descriptiveString()
	case KindObject:
		return "[object " + v.obj().className() + "]"
	case KindBigInt:
		return v.bigint().String() // V8's messages write BigInts without the n
	}
	return v.kind.String()
}

// typeOf returns the result of the typeof operator.
func (v Value) typeOf() string {
	switch v.kind {
	case KindUndefined:
		return "undefined"
	case KindNull:
		return "object"
	case KindBool:
		return "boolean"
	case KindNumber:
		return "number"
	case KindString:
		return "string"
	case KindSymbol:
		return "symbol"
	case KindBigInt:
		return "bigint"
	case KindObject:
		if v.obj().isCallable() {
			return "function"
		}
		return "object"
	}
	return "undefined"
}

// typeOfValue returns the typeof string of v, one of a few shared strings.
func typeOfValue(v Value) Value {
	switch v.kind {
	case KindUndefined:
		return stringValue(strUndefined)
	case KindNull:
		return stringValue(strObject)
	case KindBool:
		return stringValue(strBoolean)
	case KindNumber:
		return stringValue(strNumber)
	case KindString:
		return stringValue(strString)
	case KindSymbol:
		return stringValue(strSymbol)
	case KindBigInt:
		return stringValue(strBigint)
	case KindObject:
		if v.obj().isCallable() {
			return stringValue(strFunction)
		}
		return stringValue(strObject)
	}
	return stringValue(strUndefined)
}

// the typeof strings but undefined (strUndefined)
var (
	strObject   = newASCII("object")
	strBoolean  = newASCII("boolean")
	strNumber   = newASCII("number")
	strString   = newASCII("string")
	strSymbol   = newASCII("symbol")
	strBigint   = newASCII("bigint")
	strFunction = newASCII("function")
)

// SameValue is the ECMAScript SameValue: like === but NaN equals NaN and +0 differs from -0.
func SameValue(a, b Value) bool {
	if a.kind == KindNumber && b.kind == KindNumber {
		if a.num == b.num {
			return a.num != 0 || math.Signbit(a.num) == math.Signbit(b.num)
		}
		return a.num != a.num && b.num != b.num
	}
	return strictEqualNonNumber(a, b)
}

// SameValueZero is SameValue except that +0 equals -0 (used by includes, Map and Set).
func SameValueZero(a, b Value) bool {
	if a.kind == KindNumber && b.kind == KindNumber {
		return a.num == b.num || (a.num != a.num && b.num != b.num)
	}
	return strictEqualNonNumber(a, b)
}

// StrictEquals is the === operator (IsStrictlyEqual).
func StrictEquals(a, b Value) bool {
	if a.kind == KindNumber && b.kind == KindNumber {
		return a.num == b.num
	}
	return strictEqualNonNumber(a, b)
}

func strictEqualNonNumber(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case KindUndefined, KindNull:
		return true
	case KindBool:
		return a.num == b.num
	case KindString:
		return a.str().Equals(b.str())
	case KindBigInt:
		return a.ref == b.ref || a.bigint().Cmp(b.bigint()) == 0
	default:
		return a.ref == b.ref
	}
}
