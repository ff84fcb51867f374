package lint

import "path/filepath"

// Deployment is where a configuration file checked out here is deployed,
// as the lint reads it: Prefix is the conf prefix its tree is a copy of
// ("/etc/nginx") and Dir the directory here that holds the copy, when
// its path mirrors a conf prefix (repo/etc/nginx/...) or its nginx.conf
// includes files under one that lie beside it; OnHost says the file is
// under a conf prefix itself: this machine's own configuration.
// nginx-lint init writes what the lint infers into the settings, where a
// reader sees it.
type Deployment struct {
	Prefix, Dir string
	OnHost      bool
}

// DeploymentOf returns the deployment of the file at path (absolute), and
// false when its tree is neither a copy of a conf prefix nor one.
func DeploymentOf(path string) (Deployment, bool) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return Deployment{}, false
	}
	if onHost(abs) {
		return Deployment{OnHost: true}, true
	}
	prefix, dir, ok := mirrorOf(abs)
	if !ok {
		prefix, dir, ok = inferredMirror(abs)
	}
	return Deployment{Prefix: prefix, Dir: dir}, ok
}
