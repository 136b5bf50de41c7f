package main

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// selectedBuiltins are the directories under test/built-ins whose tests are run: the
// built-ins the language provides.
var selectedBuiltins = []string{
	"Object", "Array", "ArrayIteratorPrototype", "String", "StringIteratorPrototype",
	"Number", "Math", "JSON", "Promise", "Map", "MapIteratorPrototype", "Set",
	"SetIteratorPrototype", "WeakMap", "WeakSet", "Date", "RegExp",
	"RegExpStringIteratorPrototype", "Error", "NativeErrors", "AggregateError", "Function",
	"Boolean", "Symbol", "Iterator", "GeneratorPrototype", "AsyncGeneratorPrototype",
	"AsyncFromSyncIteratorPrototype", "GeneratorFunction", "AsyncFunction",
	"AsyncGeneratorFunction", "parseInt", "parseFloat", "isNaN", "isFinite",
	"encodeURIComponent", "decodeURIComponent", "encodeURI", "decodeURI", "global",
	"undefined", "NaN", "Infinity", "structuredClone", "Proxy", "Reflect",
	"ArrayBuffer", "TypedArray", "TypedArrayConstructors", "DataView", "Uint8Array",
	"BigInt",
}

// selectedAnnexB are the directories of test/annexB whose tests are run: the Annex B features
// the language provides (escape and unescape, the legacy RegExp statics). The rest of Annex B is
// excluded. The legacy statics behave as in V8 (node): each has a setter and none checks its
// receiver, where the legacy RegExp features proposal, which test262 follows, has neither; the
// tests of those two points are known failures in expectations.txt.
var selectedAnnexB = []string{
	"test/annexB/built-ins/escape",
	"test/annexB/built-ins/unescape",
	"test/annexB/built-ins/RegExp/legacy-accessors",
}

// excludedDirs are test directories (relative to the test262 root) of things the
// language leaves out on purpose; their files are reported as skipped without being read.
var excludedDirs = map[string]string{
	"test/language/eval-code":       "eval is not in the language",
	"test/language/statements/with": "with is not in the language",
	"test/language/module-code":     "modules are not in the language",
	"test/language/import":          "modules are not in the language",
	"test/language/export":          "modules are not in the language",
	"test/annexB":                   "Annex B is not in the language (but for selectedAnnexB)",
	"test/intl402":                  "Intl is not in the language",
}

// excludedFeatures maps feature tags of the frontmatter to the reason a test using the
// feature is skipped. Tags are matched exactly; excludedFeaturePrefixes covers families.
var excludedFeatures = map[string]string{
	"Float16Array":                         "typed arrays are not in the language",
	"immutable-arraybuffer":                "ArrayBuffer is not in the language",
	"SharedArrayBuffer":                    "SharedArrayBuffer is not in the language",
	"WeakRef":                              "WeakRef is not in the language",
	"FinalizationRegistry":                 "FinalizationRegistry is not in the language",
	"host-gc-required":                     "needs a host garbage-collection hook",
	"dynamic-import":                       "modules are not in the language",
	"import.meta":                          "modules are not in the language",
	"import-attributes":                    "modules are not in the language",
	"import-defer":                         "modules are not in the language",
	"export-defer":                         "modules are not in the language",
	"import-text":                          "modules are not in the language",
	"import-bytes":                         "modules are not in the language",
	"json-modules":                         "modules are not in the language",
	"arbitrary-module-namespace-names":     "modules are not in the language",
	"export-star-as-namespace-from-module": "modules are not in the language",
	"top-level-await":                      "modules are not in the language",
	"cross-realm":                          "needs $262.createRealm (one realm only)",
	"tail-call-optimization":               "tail calls are not optimised",
	"decorators":                           "decorators are not in the language",
	"explicit-resource-management":         "explicit resource management is not in the language",
	"ShadowRealm":                          "ShadowRealm is not in the language",
	"IsHTMLDDA":                            "needs the host object $262.IsHTMLDDA",
}

// excludedFeaturePrefixes maps prefixes of feature tags to skip reasons, for tag families.
var excludedFeaturePrefixes = []struct{ prefix, reason string }{
	{"Atomics", "Atomics is not in the language"},
	{"Temporal", "Temporal is not in the language"},
	{"Intl", "Intl is not in the language"},
	{"intl-", "Intl is not in the language"},
	{"source-phase-imports", "modules are not in the language"},
}

// absentFeatures are what the language leaves out on purpose but test262 has no feature tag
// for: a failing test that reaches one of them (the interpreter's UnsupportedSyntax diagnostic
// when the test compiles, or the error a program gets at run time) did not fail on
// conformance; it needs a feature the language omits, and is reported as skipped. Matched
// against the start of the diagnostic's or the uncaught error's message.
var absentFeatures = []struct{ errorName, prefix, reason string }{
	{"UnsupportedSyntax", "eval is not supported", "eval"},
	{"UnsupportedSyntax", "the Function constructor is not supported", "the Function constructor"},
	{"UnsupportedSyntax", "the RegExp v flag is not supported", "the RegExp v flag"},
	{"EvalError", "the Function constructor is not supported", "the Function constructor"},
	{"ReferenceError", "eval is not defined", "eval"},
	{"ReferenceError", "SharedArrayBuffer is not defined", "SharedArrayBuffer"},
	{"ReferenceError", "WeakRef is not defined", "WeakRef"},
	{"ReferenceError", "FinalizationRegistry is not defined", "FinalizationRegistry"},
	{"TypeError", "$262.evalScript is not a function", "$262.evalScript (a run is one script)"},
	// wellKnownIntrinsicObjects.js finds intrinsics by evaluating source text with new Function
	{"Test262Error", "this implementation could not obtain %", "the Function constructor (the harness evaluates source text to find an intrinsic)"},
	{"TypeError", "$262.createRealm is not a function", "$262.createRealm (one realm only)"},
}

// evalWord finds eval used as a name in test code (comments stripped): the global the language
// leaves out, which tests pass around as a value (`(0, eval)(src)`, `f.call(eval)`).
var evalWord = regexp.MustCompile(`\beval\b`)

// functionCall finds a call of the Function constructor in test code (comments stripped): a test
// that builds functions from strings reaches the EvalError the language gives for it, however
// the test reports that (often as a Test262Error of its own that quotes it).
var functionCall = regexp.MustCompile(`(^|[^.\w$])Function\s*\(`)

// commentText matches JavaScript comments, removed before looking for evalWord (every test
// names eval in its copyright header's neighbourhood or description now and then).
var commentText = regexp.MustCompile(`(?s)/\*.*?\*/|//[^\n]*`)

// outsideLanguage returns why a failed run only reached a feature the language leaves out on
// purpose (see absentFeatures), or "" when the failure counts. body is the test's source.
func outsideLanguage(body string, res engineResult) string {
	code := commentText.ReplaceAllString(body, "")
	if evalWord.MatchString(code) {
		return "outside the language: refers to eval"
	}
	if functionCall.MatchString(code) {
		return "outside the language: calls the Function constructor"
	}
	var e *jsError
	switch {
	case res.CompileError != nil:
		e = res.CompileError
	case res.Err == nil && res.Thrown != nil:
		e = res.Thrown
	default:
		return ""
	}
	for _, f := range absentFeatures {
		if e.Name == f.errorName && strings.HasPrefix(e.Message, f.prefix) {
			return "outside the language: uses " + f.reason + " (" + e.String() + ")"
		}
	}
	return ""
}

// dirSkipReason returns why a test path lies in an excluded directory, or "".
func dirSkipReason(p string) string {
	for _, dir := range selectedAnnexB {
		if strings.HasPrefix(p, dir+"/") {
			return ""
		}
	}
	for dir, reason := range excludedDirs {
		if p == dir || strings.HasPrefix(p, dir+"/") {
			return reason
		}
	}
	return ""
}

// featureSkipReason returns why a feature tag excludes a test, or "".
func featureSkipReason(feature string) string {
	if reason, ok := excludedFeatures[feature]; ok {
		return reason
	}
	for _, fp := range excludedFeaturePrefixes {
		if strings.HasPrefix(feature, fp.prefix) {
			return fp.reason
		}
	}
	return ""
}

// skipReason decides whether a test is skipped: by directory, by the flags the language
// cannot honour (sloppy mode, modules, blocking agents) and by feature tag. It returns the
// reason, or "" when the test runs.
func skipReason(p string, md *metadata) string {
	if reason := dirSkipReason(p); reason != "" {
		return "directory excluded: " + reason
	}
	switch {
	case md.hasFlag(flagModule):
		return "flag module: modules are not in the language"
	case md.hasFlag(flagNoStrict):
		return "flag noStrict: the language is strict only"
	case md.hasFlag(flagCanBlockIsTrue):
		return "flag CanBlockIsTrue: the host cannot block"
	}
	if md.Negative != nil && md.Negative.Phase == phaseResolution {
		return "negative resolution phase: modules are not in the language"
	}
	for _, f := range md.Features {
		if reason := featureSkipReason(f); reason != "" {
			return fmt.Sprintf("feature %s: %s", f, reason)
		}
	}
	return ""
}

// isTestFile reports whether a path names a test (fixtures of module tests are not tests).
func isTestFile(p string) bool {
	return strings.HasSuffix(p, ".js") && !strings.Contains(path.Base(p), "_FIXTURE")
}

// selectTests lists the default selection under root: test/language and the selected
// built-ins and Annex B directories, as slash-separated paths relative to root, sorted. Paths not
// containing filter (when non-empty) are left out.
func selectTests(root, filter string) ([]string, error) {
	dirs := []string{"test/language"}
	for _, b := range selectedBuiltins {
		dirs = append(dirs, "test/built-ins/"+b)
	}
	dirs = append(dirs, selectedAnnexB...)
	var paths []string
	for _, dir := range dirs {
		full := filepath.Join(root, filepath.FromSlash(dir))
		if _, err := os.Stat(full); err != nil {
			if os.IsNotExist(err) {
				continue // an optional directory (for example structuredClone) is absent
			}
			return nil, fmt.Errorf("select %s: %w", dir, err)
		}
		err := filepath.WalkDir(full, func(fp string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				return nil
			}
			rel, err := filepath.Rel(root, fp)
			if err != nil {
				return err
			}
			rel = filepath.ToSlash(rel)
			if isTestFile(rel) && strings.Contains(rel, filter) {
				paths = append(paths, rel)
			}
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("select %s: %w", dir, err)
		}
	}
	sort.Strings(paths)
	return paths, nil
}

// readList reads an explicit list of test paths: one per line, relative to the root;
// blank lines and lines starting with '#' are ignored. Paths are kept as given.
func readList(file, filter string) ([]string, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("read test list: %w", err)
	}
	var paths []string
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") || !strings.Contains(line, filter) {
			continue
		}
		paths = append(paths, line)
	}
	return paths, nil
}
