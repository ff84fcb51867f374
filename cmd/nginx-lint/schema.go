package main

import (
	"github.com/nginx-lint/nginx-lint/analyzer/config"
	"github.com/nginx-lint/nginx-lint/analyzer/rules"
)

// schemaCmd is `nginx-lint schema`: the JSON Schema of the settings, from
// the declarations of the keys, host facts, rules and options (the file
// docs/nginx-lint.schema.json publishes).
type schemaCmd struct{}

// Run is called by kong when the command is chosen (run); the exit
// code goes to e.
func (schemaCmd) Run(e *env) error {
	b, err := config.Schema(rules.All())
	if err != nil {
		return err
	}
	out := &checkedWriter{w: e.stdout}
	out.Write(b)
	if out.err != nil {
		e.code = exitError
		return out.err
	}
	return nil
}
