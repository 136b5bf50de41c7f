package interp

import "testing"

// TestStringBuiltins checks String against results computed by node.
func TestStringBuiltins(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"ctor_call", `String(12) + String(null) + String()`, "12null"},
		{"ctor_symbol", `String(Symbol('x'))`, "Symbol(x)"},
		{"ctor_new_symbol", `new String(Symbol('x'))`, "throws TypeError"},
		{"ctor_new", `const s = new String('ab'); [typeof s, s.length, s[1], Object.keys(s).join()].join()`, "object,2,b,0,1"},
		{"ctor_props", `[String.length, String.name, String.prototype.length, typeof String.prototype.valueOf()].join()`, "1,String,0,string"},
		{"fromCharCode", `String.fromCharCode(72, 105, 65536 + 33, -1).split('').map(c => c.charCodeAt(0)).join()`, "72,105,33,65535"},
		{"fromCodePoint", `String.fromCodePoint(0x1F600, 97).length + ':' + String.fromCodePoint(0x1F600).codePointAt(0)`, "3:128512"},
		{"fromCodePoint_range", `String.fromCodePoint(0x110000)`, "throws RangeError"},
		{"fromCodePoint_frac", `String.fromCodePoint(1.5)`, "throws RangeError"},
		{"raw", "String.raw`a\\n${1}b${2}`", "a\\n1b2"},
		{"raw_obj", `String.raw({raw: ['x', 'y', 'z']}, 1)`, "x1yz"},
		{"index_units", `const s = 'a\u00e9\ud83d\ude00z'; [s[0], s[1], s[2] === '\ud83d', s[4], s[5], s[-1], s[1.5], s['1']].join()`, "a,\u00e9,true,z,,,,\u00e9"},
		{"index_utf16_ascii_runs", `const s = 'caf\u00e9 abc'; [s[5] + s[6], s.slice(5), s.substring(1, 3), s.charAt(7), s.slice(3, 4) === '\u00e9'].join()`, "ab,abc,af,c,true"},
		{"index_shared_chars", `const a = 'xyz', b = 'zyx'; [a[0] === b[2], a[2] + b[0], typeof a[1], 'q'.charAt(0).length].join()`, "true,zz,string,1"},
		{"typeof_strings", `[typeof 1, typeof 'a', typeof true, typeof undefined, typeof null, typeof {}, typeof function () {}, typeof Symbol(), typeof 1n, typeof undeclaredName].join()`, "number,string,boolean,undefined,object,object,function,symbol,bigint,undefined"},
		{"at", `['abc'.at(0), 'abc'.at(-1), 'abc'.at(5), 'abc'.at(-4)].join()`, "a,c,,"},
		{"charAt", `'abc'.charAt(1) + '|' + 'abc'.charAt(9) + '|' + 'abc'.charAt(-1)`, "b||"},
		{"charCodeAt", `'abc'.charCodeAt(1) + ',' + 'abc'.charCodeAt(9)`, "98,NaN"},
		{"codePointAt", `'\u{1F600}x'.codePointAt(0) + ',' + '\u{1F600}x'.codePointAt(1) + ',' + 'a'.codePointAt(3)`, "128512,56832,undefined"},
		{"concat", `'a'.concat(1, null, [2, 3])`, "a1null2,3"},
		{"endsWith", `['abc'.endsWith('bc'), 'abc'.endsWith('b', 2), 'abc'.endsWith('')].join()`, "true,true,true"},
		{"endsWith_regexp", `'abc'.endsWith(/c/)`, "throws TypeError"},
		{"startsWith", `['abc'.startsWith('ab'), 'abc'.startsWith('b', 1), 'abc'.startsWith('x')].join()`, "true,true,false"},
		{"includes", `['abc'.includes('b'), 'abc'.includes('a', 1), 'abc'.includes('')].join()`, "true,false,true"},
		{"indexOf", `['abcabc'.indexOf('c'), 'abcabc'.indexOf('c', 3), 'abc'.indexOf(''), 'abc'.indexOf('', 9), 'abc'.indexOf('z')].join()`, "2,5,0,3,-1"},
		{"lastIndexOf", `['abcabc'.lastIndexOf('c'), 'abcabc'.lastIndexOf('c', 4), 'abc'.lastIndexOf('', 1), 'abc'.lastIndexOf('a', -5), 'abc'.lastIndexOf('abcd')].join()`, "5,2,1,0,-1"},
		{"lastIndexOf_nan", `'aXa'.lastIndexOf('a', NaN)`, "2"},
		{"isWellFormed", `['ab'.isWellFormed(), 'a\uD800'.isWellFormed(), '\uD83D\uDE00'.isWellFormed()].join()`, "true,false,true"},
		{"toWellFormed", `'a\uD800b\uDC00'.toWellFormed().split('').map(c => c.charCodeAt(0).toString(16)).join()`, "61,fffd,62,fffd"},
		{"localeCompare", `['a'.localeCompare('b'), 'b'.localeCompare('a'), 'a'.localeCompare('a')].join()`, "-1,1,0"},
		// node's ICU collation, not code units (expected values computed by node 20)
		{"localeCompare_case_and_accents", `['a'.localeCompare('B'), 'a'.localeCompare('A'), 'á'.localeCompare('b'), 'résumé'.localeCompare('resume'), 'a-b'.localeCompare('ab'), 'ß'.localeCompare('ss'), '\u0041\u030A'.localeCompare('\u00C5')].join()`, "-1,-1,-1,1,-1,1,0"},
		{"localeCompare_sort", `['banana', 'Apple', 'cherry', 'apple', 'Banana', 'éclair', 'Eclair', 'zebra', '_x', '10', '9'].sort((a, b) => a.localeCompare(b)).join()`, "_x,10,9,apple,Apple,banana,Banana,cherry,Eclair,éclair,zebra"},
		{"localeCompare_numeric", `['item10', 'item2', 'Item1'].sort((a, b) => a.localeCompare(b, undefined, {numeric: true})).join()`, "Item1,item2,item10"},
		{"localeCompare_sensitivity", `['base', 'accent', 'case', 'variant'].map(s => [['a', 'A'], ['a', 'á'], ['a', 'b']].map(([x, y]) => x.localeCompare(y, 'en', {sensitivity: s})).join(' ')).join()`, "0 0 -1,0 -1 -1,-1 0 -1,-1 -1 -1"},
		{"localeCompare_swedish", `['ä', 'z', 'a'].sort((a, b) => a.localeCompare(b, 'sv')).join('')`, "azä"},
		{"localeCompare_bad_locale", `let r; try { 'a'.localeCompare('b', 'en_US') } catch (e) { r = e.name + ': ' + e.message } r`, "RangeError: Incorrect locale information provided"},
		{"normalize", `['\u0041\u030A'.normalize().length, '\u00C5'.normalize('NFD').length, '\uFB01'.normalize('NFKC'), '\uFB01'.normalize('NFKD')].join()`, "1,2,fi,fi"},
		{"normalize_bad", `'a'.normalize('nfc')`, "throws RangeError"},
		{"padStart", `['5'.padStart(3, '0'), 'abc'.padStart(6, '12'), 'abc'.padStart(2), 'a'.padStart(4), 'a'.padStart(4, '')].join('|')`, "005|121abc|abc|   a|a"},
		{"padEnd", `['5'.padEnd(3, '0'), 'abc'.padEnd(8, '12'), 'abc'.padEnd(1)].join('|')`, "500|abc12121|abc"},
		{"repeat", `'ab'.repeat(3) + '|' + ''.repeat(100) + '|' + 'x'.repeat(0)`, "ababab||"},
		{"repeat_negative", `'a'.repeat(-1)`, "throws RangeError"},
		{"repeat_infinity", `'a'.repeat(Infinity)`, "throws RangeError"},
		{"repeat_too_long", `'ab'.repeat(2 ** 28)`, "throws RangeError"},
		{"slice", `['abcdef'.slice(1, 3), 'abcdef'.slice(-2), 'abcdef'.slice(3, 1), 'abcdef'.slice(-3, -1)].join()`, "bc,ef,,de"},
		{"substring", `['abcdef'.substring(1, 3), 'abcdef'.substring(3, 1), 'abcdef'.substring(-1, 2), 'abcdef'.substring(4)].join()`, "bc,bc,ab,ef"},
		{"substr", `['abcdef'.substr(1, 3), 'abcdef'.substr(-2), 'abcdef'.substr(2, -1), 'abcdef'.substr(1)].join()`, "bcd,ef,,bcdef"},
		{"toLowerCase", `'ÀB\u0130C'.toLowerCase().length + ':' + 'HELLO Wörld'.toLowerCase()`, "5:hello wörld"},
		{"toUpperCase", `'straße ﬁ ŉ'.toUpperCase()`, "STRASSE FI ʼN"},
		{"final_sigma", `'ΟΔΟΣ ΑΣ'.toLowerCase()`, "οδος ας"},
		{"case_lone_surrogate", `'a\uD800b'.toUpperCase().split('').map(c => c.charCodeAt(0)).join()`, "65,55296,66"},
		{"toLocaleUpperCase", `'abc'.toLocaleUpperCase() + 'ABC'.toLocaleLowerCase()`, "ABCabc"},
		{"trim", `JSON.stringify([' \t\n a b \u3000\uFEFF'.trim(), '  x '.trimStart(), '  x '.trimEnd()])`, "[\"a b\",\"x \",\"  x\"]"},
		{"trim_aliases", `String.prototype.trimLeft === String.prototype.trimStart && String.prototype.trimRight.name`, "trimEnd"},
		{"toString_generic", `String.prototype.toString.call(1)`, "throws TypeError"},
		{"valueOf_wrapper", `new String('x').valueOf() + String.prototype.valueOf.call(Object('y'))`, "xy"},
		{"iterator", `[...'a\u{1F600}b'].length + ':' + Array.from('x\uD800y').length`, "3:3"},
		{"iterator_proto", `const it = ''[Symbol.iterator](); Object.prototype.toString.call(it) + it.next().done + (Object.getPrototypeOf(Object.getPrototypeOf(it)) === Object.getPrototypeOf(Object.getPrototypeOf([].values())))`, "[object String Iterator]truetrue"},
		{"this_null", `String.prototype.trim.call(null)`, "throws TypeError"},
		{"method_props", `[String.prototype.padStart.length, String.prototype.replace.length, String.prototype.at.name, Object.keys(String.prototype).length].join()`, "1,2,at,0"},
		{"split_string", `JSON.stringify(['a,b,,c'.split(','), 'abc'.split(''), 'abc'.split('', 2), 'abc'.split(), ''.split(','), ''.split(''), 'a,b'.split(',', 0), 'a--b--'.split('--')])`, "[[\"a\",\"b\",\"\",\"c\"],[\"a\",\"b\",\"c\"],[\"a\",\"b\"],[\"abc\"],[\"\"],[],[],[\"a\",\"b\",\"\"]]"},
		{"split_limit", `JSON.stringify('a,b,c'.split(',', 2))`, "[\"a\",\"b\"]"},
		{"replace_string", `'aXbXc'.replace('X', '-') + '|' + 'abc'.replace('z', '-')`, "a-bXc|abc"},
		{"replace_patterns", "'abc'.replace('b', '[$&|$`|$\\'|$$|$1]')", "a[b|a|c|$|$1]c"},
		{"replace_fn", `'abcb'.replace('b', (m, i, s) => m.toUpperCase() + i + s.length)`, "aB14cb"},
		{"replaceAll_string", `'aXbXc'.replaceAll('X', '$&$&') + '|' + 'aaa'.replaceAll('', '-')`, "aXXbXXc|-a-a-a-"},
		{"replaceAll_fn", `'a.b.c'.replaceAll('.', (m, i) => i)`, "a1b3c"},
		{"replaceAll_nonglobal", `'abc'.replaceAll(/b/, 'x')`, "throws TypeError"},
		{"match_string", `JSON.stringify('a1b22'.match('\\d+'))`, "[\"1\"]"},
		{"match_global", `JSON.stringify('a1b22c333'.match(/\d+/g))`, "[\"1\",\"22\",\"333\"]"},
		{"match_none", `'abc'.match(/z/g)`, "null"},
		{"matchAll", `[...'a1b22'.matchAll(/\d+/g)].map(m => m[0] + '@' + m.index).join()`, "1@1,22@3"},
		{"matchAll_nonglobal", `'abc'.matchAll(/b/)`, "throws TypeError"},
		{"matchAll_string", `[...'a.b.'.matchAll('.')].length`, "4"},
		{"search", `'abc'.search(/c/) + ',' + 'abc'.search('z') + ',' + 'a.c'.search('.')`, "2,-1,0"},
		{"symbol_dispatch", `'abc'.replace({[Symbol.replace](s, r) { return s + r }}, '!') + 'x'.split({[Symbol.split](s, l) { return [s, l] }}, 3)`, "abc!x,3"},
		{"concat_long", `'ab'.repeat(1000).concat('c').length`, "2001"},
		{"string_exotic", `const s = new String('ab'); s[5] = 'x'; [s.length, s[0], Object.getOwnPropertyNames(s).join()].join('|')`, "2|a|0,1,5,length"},
		{"sigma_after_ypogegrammeni", `'\u0345\u03A3'.toLowerCase().charCodeAt(1)`, "963"},
		{"sigma_final_with_ignorable", `'A\u0345\u03A3'.toLowerCase().charCodeAt(2) + ',' + 'A\u03A3\u0345'.toLowerCase().charCodeAt(1)`, "962,962"},
		{"sigma_middle", `'A\u03A3B'.toLowerCase() + 'A\u03A3.B'.toLowerCase() + 'A\u03A3 B'.toLowerCase()`, "aσbaσ.baς b"},
		{"sigma_alone", `'\u03A3'.toLowerCase() + ' \u03A3 '.toLowerCase()`, "σ σ "},
		{"toLocale_locales", `['a'.toLocaleUpperCase({}), 'a'.toLocaleUpperCase(['en']), 'A'.toLocaleLowerCase(1)].join()`, "A,A,a"},
		{"toLocale_bad_tag", `'a'.toLocaleUpperCase([1])`, "throws TypeError"},
		{"toLocale_null", `'a'.toLocaleLowerCase(null)`, "throws TypeError"},
	})
}

// TestStringLocaleCase checks toLocaleUpperCase and toLocaleLowerCase with the locales whose
// mappings differ from the root's (Turkish, Azeri, Lithuanian, Greek), as V8 picks them from
// the first locale, against node's ICU.
func TestStringLocaleCase(t *testing.T) {
	t.Parallel()
	q := func(src string) string { return "JSON.stringify(" + src + ")" }
	runJSCases(t, []jsCase{
		{"tr_upper", q(`['i', 'ı', 'iİ'].map(s => s.toLocaleUpperCase('tr'))`), `["İ","I","İİ"]`},
		{"tr_lower", q(`['I', 'İ', 'I\u0307', 'IΣ'].map(s => s.toLocaleLowerCase('tr-TR'))`), `["ı","i","i","ıς"]`},
		{"az_upper", q(`'i'.toLocaleUpperCase('AZ')`), `"İ"`},
		{"first_locale_decides", q(`['I'.toLocaleLowerCase(['tr', 'en']), 'I'.toLocaleLowerCase(['en', 'tr']), 'I'.toLocaleLowerCase([])]`), `["ı","i","i"]`},
		{"lt_lower", q(`['İ', 'Ì', 'I\u0300', 'J\u0303'].map(s => s.toLocaleLowerCase('lt'))`), "[\"i\u0307\",\"i\u0307\u0300\",\"i\u0307\u0300\",\"j\u0307\u0303\"]"},
		{"lt_upper", q(`'i\u0307'.toLocaleUpperCase('lt')`), `"I"`},
		{"el_upper", q(`['άλφα', 'Μάιος', 'προϊόν', 'ΐ', 'ή καλή', 'ᾴ', 'α\u0301ι', 'ῥῆμα'].map(s => s.toLocaleUpperCase('el'))`), "[\"\u0391\u039b\u03a6\u0391\",\"\u039c\u0391\u03aa\u039f\u03a3\",\"\u03a0\u03a1\u039f\u03aa\u039f\u039d\",\"\u03aa\",\"\u0389 \u039a\u0391\u039b\u0397\",\"\u0391\u0399\",\"\u0391\u0399\u0308\",\"\u03a1\u0397\u039c\u0391\"]"},
		{"el_lower_is_root", q(`'ΆΣ'.toLocaleLowerCase('el')`), `"άς"`},
		{"other_locale_is_root", q(`['i'.toLocaleUpperCase('en'), 'I'.toLocaleLowerCase('de')]`), `["I","i"]`},
		{"only_first_tag_read", q(`['I'.toLocaleLowerCase(['en', 5]), 'I'.toLocaleLowerCase(['en', 'x-a'])]`), `["i","i"]`},
	})
}

// TestLocaleTags checks that locales arguments are validated as V8 validates them, with its two
// messages, and that a number or boolean is an empty list of locales.
func TestLocaleTags(t *testing.T) {
	t.Parallel()
	e := func(src string) string {
		return "(() => { try { " + src + "; return 'ok' } catch (e) { return e.constructor.name + ': ' + e.message } })()"
	}
	const incorrect = "RangeError: Incorrect locale information provided"
	runJSCases(t, []jsCase{
		{"root", e(`'a'.toLocaleUpperCase('root')`), incorrect},
		{"private use only", e(`'a'.localeCompare('b', 'x-private')`), incorrect},
		{"grandfathered", e(`'a'.toLocaleLowerCase('i-klingon')`), incorrect},
		{"underscore", e(`new Date(0).toLocaleDateString('en_US')`), incorrect},
		{"duplicate region", e(`(1).toLocaleString('en-US-US')`), incorrect},
		{"empty", e(`'a'.localeCompare('b', '')`), incorrect},
		{"bad private use", e(`'a'.toLocaleUpperCase('en-x-abcdefghi')`), "RangeError: Invalid language tag: en-x-abcdefghi"},
		{"empty extension", e(`'a'.localeCompare('b', 'EN-u')`), "RangeError: Invalid language tag: en-u"},
		{"duplicate variant", e(`new Date(0).toLocaleString('en-valencia-valencia')`), "RangeError: Invalid language tag: en-valencia-valencia"},
		{"duplicate singleton", e(`(1).toLocaleString('en-u-ca-gregory-u-nu-arab')`), "RangeError: Invalid language tag: en-u-ca-gregory-u-nu-arab"},
		{"trailing dash", e(`'a'.localeCompare('b', 'en-US-')`), "RangeError: Invalid language tag: en-us-"},
		{"valid tags", e(`for (const t of ['en-u-ca', 'art-lojban', 'und-x-a', 'zh-Hant-TW-u-nu-hanidec', 'en-t-en-us-h0-hybrid', 'qaa', 'de-1996']) 'a'.localeCompare('b', t)`), "ok"},
		{"every tag of a list", e(`'a'.localeCompare('b', ['en', 'x-a'])`), incorrect},
		{"every tag of a list is a string", e(`(1).toLocaleString(['en', 5])`), "TypeError: Language ID should be string or object."},
		{"number is no list", e(`new Date(0).toLocaleDateString(123); (1).toLocaleString(true)`), "ok"},
		{"null", e(`(1).toLocaleString(null)`), "TypeError: Cannot convert undefined or null to object"},
	})
}

// TestStringFromOneCode checks String.fromCodePoint and String.fromCharCode with one numeric
// argument, which return the shared string of an ASCII character, against node.
func TestStringFromOneCode(t *testing.T) {
	t.Parallel()
	runJSCases(t, []jsCase{
		{"from_code_point_one", "JSON.stringify([String.fromCodePoint(65), String.fromCodePoint(0xE9), String.fromCodePoint(0xD800).length, String.fromCodePoint(0x1F600), String.fromCodePoint(-0), String.fromCodePoint(0xFFFF).charCodeAt(0), String.fromCodePoint(0x10000).length, String.fromCodePoint(65) === 'A'])", "[\"A\",\"é\",1,\"😀\",\"\\u0000\",65535,2,true]"},
		{"from_code_point_invalid", "const out = []; for (const v of [1.5, -1, 0x110000, NaN, Infinity]) { try { String.fromCodePoint(v); out.push('ok'); } catch (e) { out.push(e.constructor.name); } } JSON.stringify(out)", "[\"RangeError\",\"RangeError\",\"RangeError\",\"RangeError\",\"RangeError\"]"},
		{"from_char_code_one", "JSON.stringify([String.fromCharCode(0x10041), String.fromCharCode(-1).charCodeAt(0), String.fromCharCode(65.9), String.fromCharCode(NaN).charCodeAt(0), String.fromCharCode(0xE9)])", "[\"A\",65535,\"A\",0,\"é\"]"},
	})
}
