package openapi

import (
	"os"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/codemode/codemode/internal/run"
	"github.com/codemode/codemode/internal/toolset/runtools"
)

// parseFile parses a document of testdata and checks that the runtime accepts its tools.
func parseFile(t *testing.T, name string) *Spec {
	t.Helper()
	data, err := os.ReadFile("testdata/" + name)
	require.NoError(t, err)
	spec, err := Parse(data, Options{DocumentURL: "https://api.example.com/docs/openapi.json"})
	require.NoError(t, err)
	require.NoError(t, runtools.Check(spec.Manifest), "the runtime accepts the tools")
	return spec
}

func signature(t *testing.T, s *Spec, path string) string {
	t.Helper()
	for _, tl := range s.Manifest.Tools {
		if tl.Path == path {
			return run.Signature("api."+tl.Path, tl.Input, tl.Output, false)
		}
	}
	t.Fatalf("no tool %s", path)
	return ""
}

func toolPaths(s *Spec) []string {
	out := make([]string, len(s.Manifest.Tools))
	for i, tl := range s.Manifest.Tools {
		out[i] = tl.Path
	}
	return out
}

// The Petstore 3.0 description (swagger-api/swagger-petstore): every operation is a tool but
// the image upload, whose body is binary.
func TestPetstore(t *testing.T) {
	t.Parallel()
	s := parseFile(t, "petstore3.yaml")
	require.Equal(t, []string{
		"updatePet", "addPet", "findPetsByStatus", "findPetsByTags", "getPetById", "updatePetWithForm", "deletePet",
		"getInventory", "placeOrder", "getOrderById", "deleteOrder", "createUser", "createUsersWithListInput",
		"loginUser", "logoutUser", "getUserByName", "updateUser", "deleteUser",
	}, toolPaths(s))
	require.Equal(t, []Skipped{{Operation: "POST /pet/{petId}/uploadImage", Reason: "the request body is not JSON (application/octet-stream)"}}, s.Source.Skipped)
	require.Equal(t, "https://petstore3.swagger.io/api/v3", s.Source.BaseURL)
	const pet = `{ category?: { id?: number; name?: string }; id?: number; name: string; photoUrls: Array<string>; status?: "available" | "pending" | "sold"; tags?: Array<{ id?: number; name?: string }> }`
	for path, want := range map[string]string{
		"getPetById":       `tools.api.getPetById(input: { petId: number }): Promise<` + pet + `>`,
		"findPetsByStatus": `tools.api.findPetsByStatus(input: { status?: "available" | "pending" | "sold" }): Promise<Array<` + pet + `>>`,
		"addPet":           `tools.api.addPet(input: { body: ` + pet + ` }): Promise<` + pet + `>`,
		"deletePet":        `tools.api.deletePet(input: { api_key?: string; petId: number }): Promise<unknown>`,
		"loginUser":        `tools.api.loginUser(input: { password?: string; username?: string }): Promise<string>`,
		"getInventory":     `tools.api.getInventory(input: {}): Promise<{ [key: string]: number }>`,
	} {
		require.Equal(t, want, signature(t, s, path), path)
	}
	require.Equal(t, Operation{Method: "DELETE", Path: "/pet/{petId}", Params: []Param{
		{Name: "api_key", In: "header"}, {Name: "petId", In: "path"},
	}}, s.Source.Operations["deletePet"])
	require.False(t, s.Source.Operations["loginUser"].Text, "loginUser's JSON answer is preferred to its XML one")
}

// Stripe's description (stripe/openapi, 2022): 403 operations; the writes have
// form-encoded bodies and are skipped, the reads are tools, with deepObject query parameters.
func TestStripe(t *testing.T) {
	t.Parallel()
	s := parseFile(t, "stripe-spec3.json")
	require.Len(t, s.Manifest.Tools, 217)
	require.Len(t, s.Source.Skipped, 186)
	reasons := map[string]int{}
	for _, sk := range s.Source.Skipped {
		reasons[sk.Reason]++
	}
	require.Equal(t, map[string]int{
		"the request body is not JSON (application/x-www-form-urlencoded)": 184,
		"the request body is not JSON (multipart/form-data)":               1,
		"the response is binary (application/pdf)":                         1,
	}, reasons)
	require.Equal(t, "https://api.stripe.com", s.Source.BaseURL)
	require.Equal(t, `tools.api.DeleteCustomersCustomer(input: { customer: string }): Promise<{ deleted: true; id: string; object: "customer" }>`,
		signature(t, s, "DeleteCustomersCustomer"))
	require.Contains(t, signature(t, s, "GetCustomers"),
		`tools.api.GetCustomers(input: { created?: { gt?: number; gte?: number; lt?: number; lte?: number } | number; email?: string; ending_before?: string; expand?: Array<string>; limit?: number; starting_after?: string; test_clock?: string }): Promise<{ data: Array<{ address?: { city?: string | null; country?: string | null; line1?: string | null; line2?: string | null; postal_code?: string | null; state?: string | null } | null; balance?: number; created: number; currency?: string | null; default_source?: unknown;`)
	op := s.Source.Operations["GetCustomers"]
	require.Equal(t, Param{Name: "expand", In: "query", Explode: true, Deep: true}, op.Params[3])
	for _, tl := range s.Manifest.Tools {
		require.LessOrEqual(t, len(tl.Output), 64<<10, "%s: the $defs budget bounds an output schema", tl.Path)
	}
}
