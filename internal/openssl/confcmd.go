package openssl

import "strings"

// confCommands are the names SSL_CONF_cmd takes in a configuration file
// (SSL_CONF_FLAG_FILE; nginx also sets the server, client and certificate
// flags, so every one of them applies): OpenSSL's ssl_conf_cmds.
var confCommands = []string{
	"SignatureAlgorithms", "ClientSignatureAlgorithms", "Curves", "Groups", "ECDHParameters",
	"CipherString", "Ciphersuites", "Protocol", "MinProtocol", "MaxProtocol", "Options", "VerifyMode",
	"Certificate", "PrivateKey", "ServerInfoFile", "ChainCAPath", "ChainCAFile", "ChainCAStore",
	"VerifyCAPath", "VerifyCAFile", "VerifyCAStore", "RequestCAFile", "ClientCAFile", "RequestCAPath",
	"ClientCAPath", "RequestCAStore", "ClientCAStore", "DHParameters", "RecordPadding", "NumTickets",
}

// ConfCommand reports whether SSL_CONF_cmd knows name, case-insensitively
// as in a configuration file; a name it does not know fails with
// "unknown cmd name".
func ConfCommand(name string) bool {
	for _, c := range confCommands {
		if strings.EqualFold(c, name) {
			return true
		}
	}
	return false
}
