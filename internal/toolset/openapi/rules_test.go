package openapi

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/toolset/runtools"
)

// rulesDoc exercises the naming, schema and skipping rules (docs/toolsets.md).
const rulesDoc = `
openapi: 3.1.0
info: {title: rules, version: "1"}
servers: [{url: "/v{major}", variables: {major: {default: "2"}}}]
paths:
  /pets:
    get:
      operationId: pets.list
      parameters:
        - {name: tag, in: query, schema: {type: array, items: {type: string}}}
        - {name: X-Trace, in: header, required: true, schema: {type: string}}
        - {name: Accept, in: header, schema: {type: string}}
      responses:
        "200": {description: ok, content: {application/json: {schema: {type: array, items: {$ref: "#/components/schemas/Pet"}}}}}
    post:
      operationId: pets.create
      requestBody:
        required: true
        content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}
      responses:
        "201": {description: created, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
  /pets/{id}:
    parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
    get:
      operationId: "pets/get-one"
      responses:
        "200": {description: ok, content: {application/json: {schema: {$ref: "#/components/schemas/Pet"}}}}
    delete:
      responses: {"204": {description: gone}}
    put:
      operationId: pets.list
      requestBody: {content: {application/xml: {schema: {type: object}}}}
      responses: {"200": {description: ok}}
  /pets/{id}/photo:
    get:
      operationId: "1st photo"
      parameters: [{name: id, in: path, required: true, schema: {type: integer}}]
      responses: {"200": {description: ok, content: {image/png: {}}}}
    put:
      operationId: pets
      parameters:
        - {name: id, in: path, required: true, schema: {type: integer}}
        - {name: session, in: cookie, schema: {type: string}}
      responses: {"200": {description: ok}}
  /events:
    get:
      operationId: events.watch
      responses: {"200": {description: ok, content: {text/event-stream: {schema: {type: string}}}}}
  /greeting:
    get:
      parameters: [{name: filter, in: query, style: pipeDelimited, schema: {type: array, items: {type: string}}}]
      responses: {"200": {description: ok}}
    post:
      operationId: pets
      responses: {"200": {description: ok, content: {text/plain: {schema: {type: string}}}}}
components:
  schemas:
    Pet:
      type: object
      required: [id, name, secret]
      properties:
        id: {type: integer, readOnly: true}
        name: {type: string}
        secret: {type: string, writeOnly: true}
        owner: {$ref: "#/components/schemas/Owner"}
        parent: {$ref: "#/components/schemas/Pet"}
        nickname: {type: string, nullable: true}
        age: {type: [integer, "null"], exclusiveMinimum: 0}
    Owner:
      type: object
      properties:
        token: {$ref: "#/components/schemas/Token"}
        name: {type: string}
    Token:
      type: string
      writeOnly: true
`

// Names, signatures and skipped operations of a document made to meet every rule: a dotted
// and a slashed operationId, one missing, collisions (pets.list twice, "pets" a namespace),
// each unsupported kind of operation, readOnly/writeOnly through references.
func TestRules(t *testing.T) {
	t.Parallel()
	s, err := Parse([]byte(rulesDoc), Options{DocumentURL: "https://api.example.com/docs/openapi.yaml"})
	require.NoError(t, err)
	require.NoError(t, runtools.Check(s.Manifest))
	require.Equal(t, "https://api.example.com/v2", s.Source.BaseURL, "a relative server is resolved against the document's URL")
	// Paths in order: /events, /greeting, /pets, /pets/{id}, /pets/{id}/photo.
	require.Equal(t, []string{"pets_2", "pets.list", "pets.create", "pets.getOne", "deletePetsById"}, toolPaths(s))
	require.Equal(t, []Skipped{
		{Operation: "GET /events", Reason: "the response is a stream of server-sent events"},
		{Operation: "GET /greeting", Reason: `query parameter "filter" has style pipeDelimited (supported: form)`},
		{Operation: "PUT /pets/{id}", Reason: "the request body is not JSON (application/xml)"},
		{Operation: "GET /pets/{id}/photo", Reason: "the response is binary (image/png)"},
		{Operation: "PUT /pets/{id}/photo", Reason: `cookie parameter "session" is not supported`},
	}, s.Source.Skipped)

	// readOnly out of requests, writeOnly out of responses, through $refs and at every depth.
	const (
		petIn  = `{ body: { age?: number | null; name: string; nickname?: string | null; owner?: { name?: string; token?: string }; parent?: Pet; secret: string } }`
		petOut = `{ age?: number | null; id: number; name: string; nickname?: string | null; owner?: { name?: string }; parent?: Pet }`
	)
	require.Equal(t, `tools.api.pets.create(input: `+petIn+`): Promise<`+petOut+`>`, signature(t, s, "pets.create"))
	require.Equal(t, `tools.api.pets.list(input: { "X-Trace": string; tag?: Array<string> }): Promise<Array<`+petOut+`>>`, signature(t, s, "pets.list"))
	require.Equal(t, `tools.api.pets.getOne(input: { id: number }): Promise<`+petOut+`>`, signature(t, s, "pets.getOne"))
	require.Equal(t, `tools.api.pets_2(input: {}): Promise<string>`, signature(t, s, "pets_2"))
	require.True(t, s.Source.Operations["pets_2"].Text)
	require.Equal(t, Operation{Method: "DELETE", Path: "/pets/{id}", Params: []Param{{Name: "id", In: "path"}}}, s.Source.Operations["deletePetsById"])
}

// The naming rule, case by case.
func TestNames(t *testing.T) {
	t.Parallel()
	for id, want := range map[string]string{
		"pets.list":          "pets.list",
		"repos/list-for-org": "repos.listForOrg",
		"GetAccount":         "GetAccount",
		"1st photo":          "_1stPhoto",
		"a..b":               "a.b",
		"__proto__":          "_proto",
		"--":                 "",
	} {
		require.Equal(t, want, operationName(id), id)
	}
	require.Equal(t, "getPetsByPetIdPhotos", derivedName("GET", "/pets/{petId}/photos"))
	require.Equal(t, "get", derivedName("GET", "/"))
	require.Equal(t, []string{"a", "a_2", "b_2", "b.c", "a_3"}, assignNames([]string{"a", "a", "b", "b.c", "a"}))
}

// A document whose schemas outgrow the $defs budget makes the same tools every time: which
// components are expanded does not depend on map order.
func TestDefsBudgetIsDeterministic(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	b.WriteString(`{"openapi": "3.0.3", "info": {"title": "big", "version": "1"}, "servers": [{"url": "https://x.example"}],
  "paths": {"/root": {"get": {"operationId": "root", "responses": {"200": {"description": "ok",
    "content": {"application/json": {"schema": {"$ref": "#/components/schemas/C0"}}}}}}}},
  "components": {"schemas": {`)
	for i := range 60 {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `"C%d": {"type": "object", "description": "%s", "properties": {`, i, strings.Repeat("d", 400))
		for j := range 6 {
			if j > 0 {
				b.WriteString(",")
			}
			fmt.Fprintf(&b, `"p%d": {"$ref": "#/components/schemas/C%d"}`, j, (i*7+j*13+1)%60)
		}
		b.WriteString("}}")
	}
	b.WriteString("}}}")
	first, err := Parse([]byte(b.String()), Options{})
	require.NoError(t, err)
	var defs struct {
		Defs map[string]json.RawMessage `json:"$defs"`
	}
	require.NoError(t, json.Unmarshal(first.Manifest.Tools[0].Output, &defs))
	require.Len(t, defs.Defs, 60, "every component is a $def")
	expanded := 0
	for _, d := range defs.Defs {
		if !strings.Contains(string(d), "not expanded") {
			expanded++
		}
	}
	require.Less(t, expanded, 60, "the budget stopped the expansion")
	for range 10 {
		again, err := Parse([]byte(b.String()), Options{})
		require.NoError(t, err)
		require.Equal(t, string(first.Manifest.Tools[0].Output), string(again.Manifest.Tools[0].Output))
	}
}
