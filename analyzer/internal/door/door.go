// Package door holds the key to the analyzer core's rule engine
// (analyzer.RunRules, analyzer.NewSession). Only packages under analyzer/
// can import it: the lint session, whose Run is the one public way to
// run rules, and the tests that measure rules one at a time or read
// their findings as reported.
package door

// Key opens the engine; its zero value is the key.
type Key struct{}
