module github.com/codemode/codemode/bench

go 1.26.0

replace github.com/codemode/codemode => ../

require (
	github.com/codemode/codemode v0.0.0-00010101000000-000000000000
	github.com/dop251/goja v0.0.0-20260917113740-793a2a65c13b
	github.com/stretchr/testify v1.12.1
)

require (
	github.com/dlclark/regexp2/v2 v2.13.0 // indirect
	github.com/go-sourcemap/sourcemap v2.1.3+incompatible // indirect
	github.com/google/pprof v0.0.0-20230207041349-798e818bf904 // indirect
	github.com/tdewolff/parse/v2 v2.8.20 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/net v0.62.0 // indirect
	golang.org/x/text v0.44.0 // indirect
)
