// Package dist holds the tests of the distribution files at the root of
// the repository: the Dockerfile, the GitHub Action (action.yml) and the
// release configuration (.goreleaser.yaml). They parse each file, check
// what the file promises (targets, flags, entry points), run the
// Action's lint step on sample configurations, and cross-compile every
// release target. It has no code of its own.
package dist
