package bench

import "errors"

var (
	// ErrNoExpectedValue means a script has no entry in scripts/expected.json.
	ErrNoExpectedValue = errors.New("no expected value for script")
	// ErrWrongValue means an engine computed a value different from the expected one.
	ErrWrongValue = errors.New("script produced a wrong value")
	// ErrScriptFailed means main threw or its promise rejected.
	ErrScriptFailed = errors.New("script failed")
	// ErrNotFinished means the script's promise was still pending when the job queue ran dry.
	ErrNotFinished = errors.New("script did not finish")
)
