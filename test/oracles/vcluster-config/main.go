// Command vcluster-config-oracle runs vCluster's own config parser and validation (the code the vCluster
// binary runs at start-up) on vcluster.yaml files and prints its verdict and the auto-node pools it read.
//
// Input on stdin: a JSON list of {"name": "...", "yaml": "..."}; the first argument is vCluster's chart
// JSON Schema (values.schema.json), which Helm applies before vCluster ever runs. Output on stdout: a JSON
// list, in the same order, of {"name", "ok", "error", "schemaErrors", "enabled", "autoNodes"}: ok is the
// binary's verdict, schemaErrors Helm's (the schema validated as Helm does, with
// santhosh-tekuri/jsonschema), and autoNodes what vCluster parsed.
package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"

	vconfig "github.com/loft-sh/vcluster/config"
	"github.com/loft-sh/vcluster/pkg/config"
)

type input struct {
	Name string `json:"name"`
	YAML string `json:"yaml"`
}

type verdict struct {
	Name           string                          `json:"name"`
	OK             bool                            `json:"ok"`
	Error          string                          `json:"error,omitempty"`
	SchemaErrors   []string                        `json:"schemaErrors"`
	Enabled        bool                            `json:"enabled"`
	AutoNodes      []vconfig.PrivateNodesAutoNodes `json:"autoNodes"`
	DefaultProfile string                          `json:"defaultProfile,omitempty"`
}

func main() {
	raw, err := io.ReadAll(os.Stdin)
	if err != nil {
		fail(err)
	}
	var files []input
	if err := json.Unmarshal(raw, &files); err != nil {
		fail(err)
	}
	if len(os.Args) != 2 {
		fail(fmt.Errorf("usage: vcluster-config-oracle VALUES_SCHEMA_JSON < files.json"))
	}
	schema, err := compileSchema(os.Args[1])
	if err != nil {
		fail(err)
	}
	out := make([]verdict, 0, len(files))
	for _, f := range files {
		v := judge(f)
		v.SchemaErrors = schemaErrors(schema, f.YAML)
		out = append(out, v)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(out); err != nil {
		fail(err)
	}
}

func judge(f input) (v verdict) {
	v.Name = f.Name
	v.AutoNodes = []vconfig.PrivateNodesAutoNodes{}
	defer func() {
		if r := recover(); r != nil {
			v.OK = false
			v.Error = fmt.Sprintf("panic: %v", r)
		}
	}()
	// ParseConfigBytes prints the unwrapped error of a failed strict decode on stdout; keep stdout JSON.
	stdout := os.Stdout
	os.Stdout = os.Stderr
	cfg, err := config.ParseConfigBytes([]byte(f.YAML), "tenant", nil)
	os.Stdout = stdout
	if err != nil {
		v.Error = err.Error()
		return v
	}
	v.OK = true
	v.Enabled = cfg.PrivateNodes.Enabled
	v.DefaultProfile = cfg.PrivateNodes.DefaultProfile
	if cfg.PrivateNodes.AutoNodes != nil {
		v.AutoNodes = cfg.PrivateNodes.AutoNodes
	}
	return v
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "vcluster-config-oracle:", err)
	os.Exit(1)
}

func compileSchema(file string) (*jsonschema.Schema, error) {
	c := jsonschema.NewCompiler()
	return c.Compile(file)
}

// schemaErrors validates the file as Helm validates values: YAML turned into JSON, then the schema.
func schemaErrors(schema *jsonschema.Schema, text string) []string {
	out := []string{}
	raw, err := yaml.YAMLToJSON([]byte(text))
	if err != nil {
		return append(out, err.Error())
	}
	doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(raw)))
	if err != nil {
		return append(out, err.Error())
	}
	if doc == nil {
		doc = map[string]any{}
	}
	if err := schema.Validate(doc); err != nil {
		if ve, ok := err.(*jsonschema.ValidationError); ok {
			for _, leaf := range leaves(ve) {
				out = append(out, leaf)
			}
			return out
		}
		return append(out, err.Error())
	}
	return out
}

// leaves lists the innermost causes of a validation error, each with its instance location.
func leaves(e *jsonschema.ValidationError) []string {
	if len(e.Causes) == 0 {
		return []string{"/" + strings.Join(e.InstanceLocation, "/") + ": " + e.ErrorKind.KeywordPath()[len(e.ErrorKind.KeywordPath())-1]}
	}
	var out []string
	for _, c := range e.Causes {
		out = append(out, leaves(c)...)
	}
	return out
}
