// Package openssl answers what OpenSSL accepts in the strings nginx and
// its modules hand it at startup: a cipher list (SSL_CTX_set_cipher_list,
// whose "no cipher match" stops nginx), and the names of the SSL_CONF
// commands (ssl_conf_command, lua_ssl_conf_command).
//
// The cipher and alias tables in ciphers_gen.go are read from the openssl
// command of the machine that generates them (go generate
// ./internal/openssl): each alias is the set of TLS 1.2-and-older ciphers
// that "openssl ciphers ALIAS" lists. CipherList runs a rule string over
// those sets as ssl_cipher_process_rulestr does.
package openssl

//go:generate go run ./internal/gen -out ciphers_gen.go
