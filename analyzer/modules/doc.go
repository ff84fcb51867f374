// Package modules says which nginx modules a configuration has for the
// target build: a module is there when the build compiles it in, or when
// it is a shared object (the build's, or a third-party one) that a
// load_module of the main context loads. Of reads the load_module lines
// once per run; Loaded.Missing says why a module is absent (lacking from
// the build, or not loaded), and says nothing when part of the main
// context was not seen (an include of modules-enabled/ that found no
// file here), since that part may load it.
package modules
