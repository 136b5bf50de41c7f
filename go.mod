module github.com/codemode/codemode

go 1.26

require (
	github.com/dlclark/regexp2/v2 v2.13.0 // indirect
	github.com/stretchr/testify v1.12.1 // indirect
	github.com/tdewolff/parse/v2 v2.8.20 // indirect
)
