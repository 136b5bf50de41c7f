package interp

import "testing"

// TestNumberBuiltins checks Number against results computed by node.
func TestNumberBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"ctor_call", `[Number('42'), Number(''), Number(' 12 '), Number('0x1F'), Number('0b101'), Number('1e3'), Number(null), Number(undefined), Number(true), Number([5]), Number('abc')].join()`, "42,0,12,31,5,1000,0,NaN,1,5,NaN"},
		{"ctor_no_args", `Number() + ':' + (1 / Number())`, "0:Infinity"},
		{"ctor_new", `const n = new Number(5); (typeof n) + ':' + (n + 1) + ':' + (n instanceof Number)`, "object:6:true"},
		{"constants", `[Number.EPSILON === 2 ** -52, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, Number.MAX_VALUE, Number.MIN_VALUE, Number.NaN, Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY].join()`, "true,9007199254740991,-9007199254740991,1.7976931348623157e+308,5e-324,NaN,-Infinity,Infinity"},
		{"isFinite", `[Number.isFinite(1), Number.isFinite('1'), Number.isFinite(Infinity), Number.isFinite(NaN)].join()`, "true,false,false,false"},
		{"isInteger", `[Number.isInteger(5), Number.isInteger(5.5), Number.isInteger('5'), Number.isInteger(-0), Number.isInteger(Infinity), Number.isInteger(2 ** 60)].join()`, "true,false,false,true,false,true"},
		{"isNaN", `[Number.isNaN(NaN), Number.isNaN('NaN'), Number.isNaN(undefined)].join()`, "true,false,false"},
		{"isSafeInteger", `[Number.isSafeInteger(2 ** 53 - 1), Number.isSafeInteger(2 ** 53), Number.isSafeInteger(1.5), Number.isSafeInteger(-(2 ** 53 - 1))].join()`, "true,false,false,true"},
		{"parse_same", `(Number.parseInt === parseInt) + ':' + (Number.parseFloat === parseFloat)`, "true:true"},
		{"parseInt", `[parseInt('  42px'), parseInt('0x1f'), parseInt('ff', 16), parseInt('101', 2), parseInt('z', 37), parseInt(''), parseInt('-0'), parseInt('123', 0)].join()`, "42,31,255,5,NaN,NaN,0,123"},
		{"parseFloat", `[parseFloat('3.14abc'), parseFloat('.5'), parseFloat('-Infinityx'), parseFloat('1e-7'), parseFloat('x')].join()`, "3.14,0.5,-Infinity,1e-7,NaN"},
		{"toString_radix", `[(255).toString(16), (255).toString(2), (-255).toString(36), (0.5).toString(2), (3.75).toString(8)].join()`, "ff,11111111,-73,0.1,3.6"},
		{"toString_default", `[(0.1 + 0.2).toString(), (1e21).toString(), (1e-7).toString(), (-0).toString(), (123456789012345680000).toString()].join()`, "0.30000000000000004,1e+21,1e-7,0,123456789012345680000"},
		{"toString_bad_radix", `(1).toString(1)`, "throws RangeError"},
		{"toString_radix_37", `(1).toString(37)`, "throws RangeError"},
		{"toFixed", `[(1.005).toFixed(2), (1.45).toFixed(1), (0).toFixed(2), (-1.5).toFixed(0), (1e21).toFixed(2), (123.456).toFixed(), (0.000001).toFixed(7)].join()`, "1.00,1.4,0.00,-2,1e+21,123,0.0000010"},
		{"toFixed_range", `(1).toFixed(101)`, "throws RangeError"},
		{"toFixed_nan", `NaN.toFixed(2)`, "NaN"},
		{"toPrecision", `[(123.456).toPrecision(4), (0.000123).toPrecision(2), (123456).toPrecision(2), (1.5).toPrecision(1), (2.5).toPrecision(1)].join()`, "123.5,0.00012,1.2e+5,2,3"},
		{"toPrecision_undefined", `(123.456).toPrecision()`, "123.456"},
		{"toPrecision_range", `(1).toPrecision(0)`, "throws RangeError"},
		{"toExponential", `[(123.456).toExponential(2), (0).toExponential(), (1.5e-10).toExponential(3), (12345).toExponential()].join()`, "1.23e+2,0e+0,1.500e-10,1.2345e+4"},
		{"toExponential_range", `(1).toExponential(-1)`, "throws RangeError"},
		{"toExponential_inf", `Infinity.toExponential(1000)`, "Infinity"},
		{"toLocaleString", `[(1234567.891).toLocaleString(), (0.1234).toLocaleString(), (1.0005).toLocaleString(), (-1234.5).toLocaleString(), (1e21).toLocaleString(), (999.9999).toLocaleString(), (0).toLocaleString()].join(' ')`, "1,234,567.891 0.123 1.001 -1,234.5 1,000,000,000,000,000,000,000 1,000 0"},
		{"toLocaleString_special", `[NaN.toLocaleString(), Infinity.toLocaleString(), (-Infinity).toLocaleString(), (-0).toLocaleString()].join(' ')`, "NaN ∞ -∞ -0"},
		{"valueOf", `(5).valueOf() + new Number(3).valueOf()`, "8"},
		{"valueOf_wrong_this", `const f = Number.prototype.valueOf; const o = {f}; o.f()`, "throws TypeError"},
		{"toString_wrong_this", `const o = {f: Number.prototype.toString}; o.f()`, "throws TypeError"},
		{"proto_value", `const p = Number.prototype; p.ts = Object.prototype.toString; p.valueOf() + ':' + p.ts()`, "0:[object Number]"},
		{"lengths", `[Number.length, Number.prototype.toFixed.length, Number.prototype.toString.length, Number.prototype.toLocaleString.length, Number.isInteger.name].join()`, "1,1,1,0,isInteger"},
		{"subclass", `class N extends Number { twice() { return this * 2 } } new N(21).twice()`, "42"},
		{"coercion", `Number({valueOf() { return 7 }}) + Number({toString() { return '3' }})`, "10"},
		{"number_symbol", `Number(Symbol())`, "throws TypeError"},
		{"locale_min_frac", `(1234.5).toLocaleString(undefined, {minimumFractionDigits: 2})`, "1,234.50"},
		{"locale_max_frac", `[(1234.5678).toLocaleString('en-US', {maximumFractionDigits: 2}), (1.005).toLocaleString('en-US', {maximumFractionDigits: 2}), (2.5).toLocaleString('en-US', {maximumFractionDigits: 0}), (-0.001).toLocaleString('en-US', {maximumFractionDigits: 2})].join(' ')`, "1,234.57 1.01 3 -0"},
		{"locale_percent", `[(0.256).toLocaleString('en-US', {style: 'percent'}), (0.256).toLocaleString('en-US', {style: 'percent', minimumFractionDigits: 1}), NaN.toLocaleString('en-US', {style: 'percent'})].join(' ')`, "26% 25.6% NaN%"},
		{"locale_currency", `[(1234.5).toLocaleString('en-US', {style: 'currency', currency: 'USD'}), (-1234.5).toLocaleString('en-US', {style: 'currency', currency: 'EUR'}), (1234.5).toLocaleString('en-US', {style: 'currency', currency: 'JPY'}), (1234.5).toLocaleString('en-US', {style: 'currency', currency: 'CHF'}), (-0).toLocaleString('en-US', {style: 'currency', currency: 'usd'}), Infinity.toLocaleString('en-US', {style: 'currency', currency: 'GBP'})].join(' ')`, "$1,234.50 -€1,234.50 ¥1,235 CHF 1,234.50 -$0.00 £∞"},
		{"locale_currency_missing", `(1).toLocaleString('en-US', {style: 'currency'})`, "throws TypeError"},
		{"locale_grouping_int", `[(1234.5).toLocaleString('en-US', {useGrouping: false}), (5).toLocaleString('en-US', {minimumIntegerDigits: 3})].join(' ')`, "1234.5 005"},
		{"locale_range", `(1).toLocaleString('en-US', {minimumFractionDigits: 4, maximumFractionDigits: 2})`, "throws RangeError"},
		{"locale_bad_style", `(1).toLocaleString('en-US', {style: 'bogus'})`, "throws RangeError"},
		{"locale_german", `[(1234.5).toLocaleString('de-DE'), (1234.5).toLocaleString('de-DE', {style: 'currency', currency: 'EUR'})].join(' ')`, "1.234,5 1.234,50 €"},
		{"locale_big_currency", `(1e21).toLocaleString(undefined, {style: 'currency', currency: 'USD'})`, "$1,000,000,000,000,000,000,000.00"},
	})
}
