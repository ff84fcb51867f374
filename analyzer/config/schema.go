package config

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/nginx-lint/nginx-lint/analyzer"
)

// SchemaURL is where the JSON Schema of the settings is published (the
// repository's docs/nginx-lint.schema.json), its $id, and what nginx-lint
// init names in the file it writes for editors that read a
// "yaml-language-server: $schema=" comment.
const SchemaURL = "https://raw.githubusercontent.com/nginx-lint/nginx-lint/main/docs/nginx-lint.schema.json"

// Schema returns the JSON Schema (draft-07, the draft SchemaStore and
// yaml-language-server read best) of a settings file whose rules are
// those of reg, generated from the same declarations Parse and Apply
// check a file against: the top-level keys (Keys), fmt's (FmtKeys), the
// host facts (analyzer.HostFacts), and each rule's name, code and typed
// options. Where Parse accepts a value in more than one form (a number
// written as a string, "on" for true), so does the schema, so that it
// never refuses a file nginx-lint reads; unknown keys, rules and options
// are refused, as Parse and Apply refuse them.
func Schema(reg *analyzer.Registry) ([]byte, error) {
	doc := obj{
		"$schema":              "http://json-schema.org/draft-07/schema#",
		"$id":                  SchemaURL,
		"title":                "nginx-lint settings (.nginx-lint.yaml)",
		"description":          "The per-project settings of nginx-lint, the nginx configuration linter: https://github.com/nginx-lint/nginx-lint/blob/main/docs/configuration.md",
		"type":                 []string{"object", "null"},
		"additionalProperties": false,
		"properties":           topProperties(reg),
		"definitions":          obj{"severity": severitySchema(), "rule-switch": switchSchema()},
	}
	// Each rule once, under definitions, named by its name and its code.
	for _, r := range reg.Rules() {
		doc["definitions"].(obj)["rule-"+r.Name] = ruleSchema(r)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// obj is a JSON object of the schema; encoding/json sorts its keys, so
// the output is the same from run to run.
type obj = map[string]any

func described(k Key, s obj) obj {
	s["description"] = k.Doc
	return s
}

func keyDoc(keys []Key, name string) Key {
	for _, k := range keys {
		if k.Name == name {
			return k
		}
	}
	panic("config: no key " + name)
}

func topProperties(reg *analyzer.Registry) obj {
	str := func() obj { return obj{"type": "string"} }
	list := func() obj { return obj{"type": "array", "items": obj{"type": "string"}} }
	props := obj{
		"prefix": str(),
		"include-paths": obj{"type": []string{"object", "null"}, "propertyNames": obj{"pattern": "^/"},
			"additionalProperties": obj{"type": "string"}},
		"custom-directives": list(),
		"custom-variables":  list(),
		"check-files":       obj{"type": "boolean"},
		"max-file-size":     obj{"type": []string{"string", "integer"}, "pattern": `^\s*[0-9]+\s*([KkMmGg]?([Ii]?[Bb])?)?\s*$`, "minimum": 1},
		"nginx-build":       str(),
		"nginx-version":     obj{"type": "string", "pattern": `^[0-9]+\.[0-9]+\.[0-9]+$`},
		"cost-profile":      str(),
		"fmt":               fmtSchema(),
		"host":              hostSchema(),
		"rules":             rulesSchema(reg),
	}
	for name, s := range props {
		described(keyDoc(Keys, name), s.(obj))
	}
	return props
}

func fmtSchema() obj {
	props := obj{
		"indent": obj{"anyOf": []obj{
			{"type": "string", "enum": []string{"auto", "tab", "tabs"}},
			{"type": "integer", "minimum": 1, "maximum": 16},
			{"type": "string", "pattern": "^([1-9]|1[0-6])$"},
		}},
		"spacing":         obj{"type": "string", "enum": []string{"keep", "single"}},
		"max-blank-lines": obj{"type": "integer", "minimum": 1},
	}
	for name, s := range props {
		described(keyDoc(FmtKeys, name), s.(obj))
	}
	return obj{"type": []string{"object", "null"}, "additionalProperties": false, "properties": props}
}

func hostSchema() obj {
	props := obj{}
	for _, o := range analyzer.HostFacts {
		s := optionSchema(o)
		if o.Type == analyzer.StringType {
			// A kernel written 5.15 is a number to YAML; Parse reads
			// the text.
			s["type"] = []string{"string", "number"}
		}
		props[o.Name] = s
	}
	return obj{"type": []string{"object", "null"}, "additionalProperties": false, "properties": props}
}

func severitySchema() obj {
	return obj{"type": "string", "enum": []string{"error", "warning", "info", "Error", "Warning", "Info", "ERROR", "WARNING", "INFO"}}
}

// switchSchema is a rule's short form: on, off (and YAML's other words
// for them, which Parse reads from the text) or a severity.
func switchSchema() obj {
	return obj{
		"description": "on, off or a severity (error, warning, info)",
		"anyOf": []obj{
			{"type": "boolean"},
			{"type": "string", "enum": []string{"on", "off", "true", "false", "yes", "no", "enabled", "disabled", "On", "Off", "ON", "OFF"}},
			{"$ref": "#/definitions/severity"},
		},
	}
}

func rulesSchema(reg *analyzer.Registry) obj {
	props := obj{}
	for _, r := range reg.Rules() {
		ref := obj{"$ref": "#/definitions/rule-" + r.Name}
		props[r.Name], props[r.Code] = ref, ref
	}
	return obj{"type": []string{"object", "null"}, "additionalProperties": false, "properties": props}
}

// ruleSchema is a rule's settings: the short form, or a mapping whose
// options are the rule's, each of its type (and its former names,
// deprecated).
func ruleSchema(r *analyzer.Rule) obj {
	options := obj{}
	for _, o := range r.Options {
		options[o.Name] = optionSchema(o)
		for _, old := range o.Deprecated {
			s := optionSchema(o)
			s["description"] = "Deprecated: write " + o.Name + ". " + o.Doc
			s["deprecated"] = true
			options[old] = s
		}
	}
	long := obj{
		"type":                 "object",
		"additionalProperties": false,
		"properties": obj{
			"enabled":  described(keyDoc(RuleKeys, "enabled"), obj{"type": "boolean"}),
			"severity": described(keyDoc(RuleKeys, "severity"), obj{"$ref": "#/definitions/severity"}),
			"options":  described(keyDoc(RuleKeys, "options"), obj{"type": []string{"object", "null"}, "additionalProperties": false, "properties": options}),
		},
	}
	doc := r.Code + " " + r.Name + " (" + r.Severity.String() + "): " + r.Title + ". https://github.com/nginx-lint/nginx-lint/blob/main/docs/rules/" + r.Name + ".md"
	return obj{"description": doc, "anyOf": []obj{{"$ref": "#/definitions/rule-switch"}, long}}
}

// optionSchema is the schema of an option's value: its type, in every
// form Option.Convert accepts, and its default.
func optionSchema(o analyzer.Option) obj {
	s := obj{"description": o.Doc}
	switch o.Type {
	case analyzer.BoolType:
		s["enum"] = []any{true, false, "true", "false", "yes", "no", "on", "off"}
	case analyzer.IntType:
		// The pattern holds for a string only.
		s["type"] = []string{"integer", "string"}
		s["pattern"] = "^-?[0-9]+$"
	case analyzer.StringType:
		s["type"] = "string"
	case analyzer.StringListType:
		s["type"] = []string{"array", "string"}
		s["items"] = obj{"type": "string"}
	case analyzer.DurationType:
		s["type"] = []string{"string", "number"}
		s["pattern"] = `^(([0-9]+(\.[0-9]*)?|\.[0-9]+)(ns|us|µs|μs|ms|s|m|h))+$|^[0-9]+(\.[0-9]*)?$`
	}
	if v, ok := o.DefaultValue(); ok {
		s["default"] = v
		if o.Type == analyzer.DurationType {
			s["default"] = o.Default
		}
	}
	if strings.HasPrefix(o.Doc, "Deprecated") {
		s["deprecated"] = true
	}
	return s
}
