package interp

import (
	"math"
	"strconv"
	"strings"
)

// Number.prototype.toLocaleString(locales, options): the en-US number format of node's ICU
// for the options programs commonly use: style (decimal, percent, currency with a currency
// code), minimumFractionDigits, maximumFractionDigits, minimumIntegerDigits and
// useGrouping. German-style locales ("de", "de-DE", ...) swap the separators; every other
// locale formats as en-US. Digits are rounded half away from zero on the shortest decimal
// form of the number, as ICU does.

// localeFormat holds the resolved options of one toLocaleString call.
type localeFormat struct {
	minFrac, maxFrac int
	minInt           int
	grouping         bool
	percent          bool
	currency         string // ISO code (upper case) when style is currency
	group, decimal   string // separators of the locale
	germanCurrency   bool   // the currency sign follows the number ("1.234,50 €")
}

// currencySymbols are the en-US symbols of common currencies; others print their code.
var currencySymbols = map[string]string{
	"USD": "$", "EUR": "€", "GBP": "£", "JPY": "¥", "INR": "₹", "CNY": "CN¥", "KRW": "₩",
	"CAD": "CA$", "AUD": "A$", "MXN": "MX$", "BRL": "R$", "ILS": "₪", "VND": "₫", "NZD": "NZ$",
	"HKD": "HK$", "TWD": "NT$", "PHP": "₱",
}

// currencyDigits are the fraction digits of currencies that do not use 2.
var currencyDigits = map[string]int{"JPY": 0, "KRW": 0, "VND": 0, "CLP": 0, "ISK": 0, "HUF": 2,
	"BHD": 3, "KWD": 3, "OMR": 3, "JOD": 3, "TND": 3}

// resolveLocaleFormat reads the locales and options arguments (GetOption order: style,
// currency, then the digit options, then useGrouping).
func (vm *VM) resolveLocaleFormat(locales, options Value) localeFormat {
	f := localeFormat{minInt: 1, grouping: true, group: ",", decimal: "."}
	vm.checkLocales(locales)
	if locales.kind == KindString {
		tag := strings.ToLower(locales.str().String())
		if tag == "de" || strings.HasPrefix(tag, "de-") {
			f.group, f.decimal, f.germanCurrency = ".", ",", true
		}
	}
	var opts *Object
	if !options.IsUndefined() {
		opts = vm.toObject(options)
	}
	get := func(name string) Value {
		if opts == nil {
			return undefinedValue
		}
		return vm.getProp(opts, strKey(name))
	}
	style := "decimal"
	if v := get("style"); !v.IsUndefined() {
		style = vm.toString(v).String()
		if style != "decimal" && style != "percent" && style != "currency" && style != "unit" {
			vm.throwRangeError("Value %s out of range for Number.prototype.toLocaleString options property style", style)
		}
	}
	if v := get("currency"); !v.IsUndefined() {
		code := vm.toString(v).String()
		if len(code) != 3 || strings.IndexFunc(code, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') }) >= 0 {
			vm.throwRangeError("Invalid currency code : %s", code)
		}
		if style == "currency" {
			f.currency = strings.ToUpper(code)
		}
	}
	if style == "currency" && f.currency == "" {
		vm.throwTypeError("Currency code is required with currency style.")
	}
	defMin, defMax := 0, 3
	switch style {
	case "percent":
		f.percent = true
		defMax = 0
	case "currency":
		d, ok := currencyDigits[f.currency]
		if !ok {
			d = 2
		}
		defMin, defMax = d, d
	}
	digits := func(name string, lo, hi int) (int, bool) {
		v := get(name)
		if v.IsUndefined() {
			return 0, false
		}
		n := vm.toNumber(v)
		if n != n || n < float64(lo) || n > float64(hi) {
			vm.throwRangeError("%s value is out of range.", name)
		}
		return int(math.Floor(n)), true
	}
	if n, ok := digits("minimumIntegerDigits", 1, 21); ok {
		f.minInt = n
	}
	mn, hasMin := digits("minimumFractionDigits", 0, 100)
	mx, hasMax := digits("maximumFractionDigits", 0, 100)
	switch {
	case hasMin && hasMax:
		if mn > mx {
			vm.throwRangeError("maximumFractionDigits value is out of range.")
		}
	case hasMin:
		mx = max(mn, defMax)
	case hasMax:
		mn = min(defMin, mx)
	default:
		mn, mx = defMin, defMax
	}
	f.minFrac, f.maxFrac = mn, mx
	if v := get("useGrouping"); !v.IsUndefined() {
		if v.kind == KindString {
			f.grouping = v.str().String() != "false"
		} else {
			f.grouping = ToBoolean(v)
		}
	}
	return f
}

// format renders x with the resolved options.
func (f *localeFormat) format(x float64) string {
	neg := math.Signbit(x) && x == x
	if neg {
		x = -x
	}
	var body string
	switch {
	case x != x:
		body = "NaN"
	case math.IsInf(x, 0):
		body = "∞"
	default:
		if f.percent {
			x *= 100
		}
		body = f.digits(x)
	}
	if f.percent {
		body += "%"
	}
	if f.currency != "" {
		sym, ok := currencySymbols[f.currency]
		switch {
		case f.germanCurrency:
			if !ok {
				sym = f.currency
			}
			body += "\u00a0" + sym
		case ok:
			body = sym + body
		default:
			body = f.currency + "\u00a0" + body
		}
	}
	if neg {
		return "-" + body
	}
	return body
}

// digits formats a finite non-negative x: rounded to maxFrac fraction digits (half away
// from zero on the shortest decimal form), padded to minFrac and minInt, grouped by three.
func (f *localeFormat) digits(x float64) string {
	e := strconv.FormatFloat(x, 'e', -1, 64)
	mant, expText, _ := strings.Cut(e, "e")
	exp, _ := strconv.Atoi(expText)
	all := strings.Replace(mant, ".", "", 1)
	var intPart, frac string
	if exp >= 0 {
		if exp+1 >= len(all) {
			intPart = all + strings.Repeat("0", exp+1-len(all))
		} else {
			intPart, frac = all[:exp+1], all[exp+1:]
		}
	} else {
		intPart, frac = "0", strings.Repeat("0", -exp-1)+all
	}
	if len(frac) > f.maxFrac {
		up := frac[f.maxFrac] >= '5'
		frac = frac[:f.maxFrac]
		if up {
			n := []byte(intPart + frac)
			i := len(n) - 1
			for ; i >= 0 && n[i] == '9'; i-- {
				n[i] = '0'
			}
			if i < 0 {
				n = append([]byte{'1'}, n...)
			} else {
				n[i]++
			}
			intPart, frac = string(n[:len(n)-f.maxFrac]), string(n[len(n)-f.maxFrac:])
		}
	}
	for len(frac) > f.minFrac && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	for len(frac) < f.minFrac {
		frac += "0"
	}
	intPart = strings.TrimLeft(intPart, "0")
	for len(intPart) < f.minInt {
		intPart = "0" + intPart
	}
	var b strings.Builder
	for i := 0; i < len(intPart); i++ {
		if f.grouping && i > 0 && (len(intPart)-i)%3 == 0 {
			b.WriteString(f.group)
		}
		b.WriteByte(intPart[i])
	}
	if frac != "" {
		b.WriteString(f.decimal)
		b.WriteString(frac)
	}
	return b.String()
}
