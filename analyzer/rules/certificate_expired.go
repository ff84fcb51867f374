package rules

import (
	"crypto"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

// CertificateExpired reports a certificate nginx serves that has expired
// or is not valid yet.
var CertificateExpired = &analyzer.Rule{
	Code: "NL2070", Name: "certificate-expired", Title: "certificate expired or not yet valid", Severity: parser.Warning,
	Run:     runCertificateExpired,
	Host:    true,
	Options: certFilesOption,
	Doc: analyzer.Doc{
		Text: "Off unless nginx-lint runs with `--check-files` (or `check-files: true`): it reads the " +
			"certificate files of this machine. nginx starts with an expired certificate (`nginx -t` " +
			"says nothing), and every client then refuses the connection (`certificate has expired`); " +
			"one not valid yet (a clock or an issuing mistake) is refused the same way. The server's " +
			"certificate and every certificate of its chain (an expired intermediate breaks " +
			"verification too) are checked against this machine's clock, at the `ssl_certificate` " +
			"line. Renew it (`certbot renew`, or your CA) and reload nginx. `certificate-expiring` " +
			"warns before it comes to this.",
		Bad:  "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name expired.example;\n        ssl_certificate \"data:" + exampleExpiredCert + "\";\n        ssl_certificate_key /etc/ssl/private/expired.example.key;\n    }\n}\n",
		Good: "# with --check-files\nevents {}\nhttp {\n    server {\n        listen 443 ssl;\n        server_name a.example;\n        ssl_certificate \"data:" + exampleCert + "\";\n        ssl_certificate_key \"data:" + exampleKey + "\";\n    }\n}\n",
		URL:  "https://nginx.org/en/docs/http/ngx_http_ssl_module.html#ssl_certificate",
	},
}

func runCertificateExpired(p *analyzer.Pass) {
	now := time.Now()
	for _, pair := range sharedCertAudit(p).pairs {
		if pair.chain == nil {
			continue
		}
		c, state := pair.chain.Expiry(now)
		which := certWhich(pair, c)
		switch state {
		case certfile.Expired:
			reportCert(p, pair, "nginx starts with it, but clients refuse the connection (certificate has expired): renew it and reload nginx",
				"%s expired on %s (%s ago)", which, c.NotAfter.UTC().Format("2006-01-02 15:04 MST"), days(now.Sub(c.NotAfter)))
		case certfile.NotYetValid:
			reportCert(p, pair, "nginx starts with it, but clients refuse the connection (certificate is not yet valid): check this machine's clock and the certificate's dates",
				"%s is not valid before %s (in %s)", which, c.NotBefore.UTC().Format("2006-01-02 15:04 MST"), days(c.NotBefore.Sub(now)))
		}
	}
}

// days words a duration in days ("3 days", "less than a day").
func days(d time.Duration) string {
	n := int(d.Hours() / 24)
	switch {
	case n < 1:
		return "less than a day"
	case n == 1:
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}

// This file is what the certificate rules share: each http server's
// certificates and keys as nginx pairs them (the i-th ssl_certificate
// with the i-th ssl_certificate_key, inherited from http when the server
// sets none), each file read once per run through Pass.ReadFile (the
// language server's open buffers included), and the roots this machine
// trusts. The rules are Host rules: they run with --check-files.

// certPair is one ssl_certificate with its key, of one server.
type certPair struct {
	cert, key *parser.Directive
	chain     *certfile.Chain
	pub       crypto.PublicKey
	// certErr and keyErr say why the file was not read (nil when it was,
	// or when it is not there: missing-file reports that).
	certErr, keyErr error
	// servers are the server blocks that use the pair.
	servers []*parser.Directive
}

// certAudit is every pair of the configuration, in the order of the
// directives.
type certAudit struct {
	pairs []*certPair
	// roots are the certificates this machine trusts, with the
	// configuration's ssl_trusted_certificate and ssl_client_certificate
	// files; nil when the system's could not be read.
	roots *x509.CertPool
}

var certAuditResult = &analyzer.Result[struct{}, *certAudit]{
	Name:    "certificate audit",
	Compute: func(p *analyzer.Pass, _ struct{}) *certAudit { return collectCertificates(p) },
}

func sharedCertAudit(p *analyzer.Pass) *certAudit { return certAuditResult.Get(p, struct{}{}) }

// systemRoots is the machine's trust store, read once per process.
var systemRoots = sync.OnceValues(x509.SystemCertPool)

func collectCertificates(p *analyzer.Pass) *certAudit {
	a := &certAudit{}
	t := sharedTLSFacts(p)
	ix := p.Index()
	type key struct{ cert, key *parser.Directive }
	byDirs := map[key]*certPair{}
	files := map[string]fileRead{}
	read := func(d *parser.Directive) ([]byte, bool, error) {
		if d == nil || len(d.Args()) != 1 {
			return nil, false, nil
		}
		v := d.Args()[0].Value
		if data, ok := strings.CutPrefix(v, "data:"); ok {
			return []byte(data), true, nil
		}
		path, ok := p.Config.FilePath(v)
		if !ok {
			return nil, false, nil // a variable: loaded per request
		}
		f, seen := files[path]
		if !seen {
			f.data, f.err = readCertFile(p, path)
			files[path] = f
		}
		if f.err != nil {
			// Missing: missing-file says so. Unreadable (permissions):
			// nginx, root, may read what this user cannot.
			return nil, false, nil
		}
		return f.data, true, nil
	}
	var trustFiles []*parser.Directive
	for _, i := range t.servers {
		srv := ix.Entries[i].Directive
		m := t.merged(srv)
		if !m.hasContext() {
			continue
		}
		for _, d := range []*parser.Directive{m.trusted, m.client} {
			if d != nil {
				trustFiles = append(trustFiles, d)
			}
		}
		for j, c := range m.certs {
			var k *parser.Directive
			if j < len(m.keys) {
				k = m.keys[j]
			}
			pk := key{c, k}
			pair := byDirs[pk]
			if pair == nil {
				pair = &certPair{cert: c, key: k}
				if data, ok, _ := read(c); ok {
					pair.chain, pair.certErr = certfile.ReadChain(data)
				} else {
					pair.cert = nil
				}
				if data, ok, _ := read(k); ok {
					pair.pub, pair.keyErr = certfile.ReadKey(data)
				}
				byDirs[pk] = pair
				if pair.cert != nil {
					a.pairs = append(a.pairs, pair)
				}
			}
			pair.servers = append(pair.servers, srv)
		}
	}
	if len(a.pairs) == 0 {
		return a
	}
	if sys, err := systemRoots(); err == nil && sys != nil {
		a.roots = sys.Clone()
		seen := map[*parser.Directive]bool{}
		for _, d := range trustFiles {
			if seen[d] {
				continue
			}
			seen[d] = true
			if data, ok, _ := read(d); ok {
				if ch, err := certfile.ReadChain(data); err == nil {
					for _, c := range ch.Certs {
						a.roots.AddCert(c)
					}
				}
			}
		}
	}
	return a
}

type fileRead struct {
	data []byte
	err  error
}

// readCertFile reads a certificate or key file the way the loader reads
// (Pass.ReadFile: an editor's unsaved buffer wins), else from the disk.
func readCertFile(p *analyzer.Pass, path string) ([]byte, error) {
	if p.ReadFile != nil {
		return p.ReadFile(path)
	}
	return os.ReadFile(path)
}

// certRange is where a certificate finding points: the argument of the
// directive (the path).
func certRange(d *parser.Directive) parser.Range {
	if len(d.Args()) > 0 {
		return d.Args()[0].Range
	}
	return d.Name().Range
}

// reportCert reports on the certificate directive of pair, with the
// servers that use it as related places when it is set in http for
// several.
func reportCert(p *analyzer.Pass, pair *certPair, detail, format string, args ...any) *parser.Diagnostic {
	d := p.Reportf(pair.cert.File, certRange(pair.cert), format, args...)
	d.Detail = detail
	return d
}

// certArg is the argument of a certificate or key directive as messages
// quote it: the path as written, or "data:..." for an inline one.
func certArg(d *parser.Directive) string {
	if d == nil || len(d.Args()) == 0 {
		return ""
	}
	v := d.Args()[0].Value
	if strings.HasPrefix(v, "data:") {
		return "data:..."
	}
	return v
}

// certWhich names certificate c of pair's file for a message: the
// file's own (the server's), or one of its chain by its place and name.
func certWhich(pair *certPair, c *x509.Certificate) string {
	for i, x := range pair.chain.Certs {
		if x == c && i > 0 {
			return fmt.Sprintf("certificate %d of %q (%s)", i+1, certArg(pair.cert), certfile.Name(c))
		}
	}
	return fmt.Sprintf("certificate %q", certArg(pair.cert))
}

// certFiles are the options every certificate rule declares: it checks
// this machine's files.
var certFilesOption = []analyzer.Option{analyzer.CheckFilesOption.Decl()}

// The certificates and keys the certificate rules' examples embed, with
// nginx's "data:" prefix (ssl_certificate "data:-----BEGIN ...", which
// nginx loads as it loads a file), so that each example is a whole
// configuration TestExamples can lint. They were made once with Go's
// crypto (internal/testcerts) for the examples alone: the keys protect
// nothing. The tests of the rules make their own certificates.
//
// exampleCert is a self-signed ECDSA P-256 certificate for a.example and
// www.a.example, valid from 2025 to 9999-12-31 (RFC 5280's "no
// well-defined expiration"), and exampleKey its key; exampleOtherKey is
// another key. exampleExpiredCert (expired.example) was valid from
// 2020-01-01 to 2020-04-01. exampleLeafCert (shop.example, until
// 2049-12-31) is issued by exampleIntermediateCert ("Example Intermediate
// CA"), issued by a root the examples leave out. exampleWeakCert
// (old.example) has an RSA key of 1024 bits.
const (
	exampleCert = `-----BEGIN CERTIFICATE-----
MIIBdTCCARygAwIBAgIELIcSlTAKBggqhkjOPQQDAjAUMRIwEAYDVQQDEwlhLmV4
YW1wbGUwIBcNMjUwMTAxMDAwMDAwWhgPOTk5OTEyMzEyMzU5NTlaMBQxEjAQBgNV
BAMTCWEuZXhhbXBsZTBZMBMGByqGSM49AgEGCCqGSM49AwEHA0IABKa3vIQDwId2
XrUMWSM6RiR4+wss6NK3TZ5ioei7XIOG+dTqzWtthj1t1cpg5PtbE0ItBPMCv1xP
TSEsNVL4ytijWjBYMA4GA1UdDwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcD
ATAMBgNVHRMBAf8EAjAAMCMGA1UdEQQcMBqCCWEuZXhhbXBsZYINd3d3LmEuZXhh
bXBsZTAKBggqhkjOPQQDAgNHADBEAiBhhXrwYCJFlRuOohS61NeycAT1cbd0sfLZ
jGg5KbhOCAIgLAxv2IX7RG5n0pkAhyYVtuH5i1IUVotsidn0AZ2zGDM=
-----END CERTIFICATE-----`
	exampleKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgW8cvo/YQvXrE4CVj
5sf1upmLxZEprq6cvCPoQQ0jf3+hRANCAASmt7yEA8CHdl61DFkjOkYkePsLLOjS
t02eYqHou1yDhvnU6s1rbYY9bdXKYOT7WxNCLQTzAr9cT00hLDVS+MrY
-----END PRIVATE KEY-----`
	exampleOtherKey = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg18+BaCq+pUJyQHNs
/nEQsOYPlcL2YgSbamReiVXLB4ChRANCAARPo6KAjYO5EZJXE/Tv5t54iQIcBmBh
re7Pvc5J4dsNX5cXFT1OYnfPis37ShHIVGPQ8SOWpowA+MdR3j0v1/Tq
-----END PRIVATE KEY-----`
	exampleExpiredCert = `-----BEGIN CERTIFICATE-----
MIIBdzCCAR2gAwIBAgIELI63AzAKBggqhkjOPQQDAjAaMRgwFgYDVQQDEw9leHBp
cmVkLmV4YW1wbGUwHhcNMjAwMTAxMDAwMDAwWhcNMjAwNDAxMDAwMDAwWjAaMRgw
FgYDVQQDEw9leHBpcmVkLmV4YW1wbGUwWTATBgcqhkjOPQIBBggqhkjOPQMBBwNC
AAQDppXKuDL4aCu0eW5NSECGidFG8jCgYGlW5TKwJCZ4MBhYhUl+63s0ligwnpKX
VF7GAftBUJBEHpgHMQp6WupOo1EwTzAOBgNVHQ8BAf8EBAMCB4AwEwYDVR0lBAww
CgYIKwYBBQUHAwEwDAYDVR0TAQH/BAIwADAaBgNVHREEEzARgg9leHBpcmVkLmV4
YW1wbGUwCgYIKoZIzj0EAwIDSAAwRQIhAPT1krg0I28w1XaOA49OxvXevv7gKq/7
NiUKjZC6b3hnAiBqsWh+kcjEuKi86UeDtC4iAgZRGG5IKfQiph9MNE2dWA==
-----END CERTIFICATE-----`
	exampleLeafCert = `-----BEGIN CERTIFICATE-----
MIIBmTCCAUCgAwIBAgIELJW4qzAKBggqhkjOPQQDAjAiMSAwHgYDVQQDExdFeGFt
cGxlIEludGVybWVkaWF0ZSBDQTAeFw0yNTAxMDEwMDAwMDBaFw00OTEyMzEwMDAw
MDBaMBcxFTATBgNVBAMTDHNob3AuZXhhbXBsZTBZMBMGByqGSM49AgEGCCqGSM49
AwEHA0IABIteZtTCHgXPOiiK6RyLpS4X2EVHGQqDJkx7jISPBole3arVQ2w04a5Q
C+jNM+EMqKUziwHAk8Iq+3rtvSZuzcijbzBtMA4GA1UdDwEB/wQEAwIHgDATBgNV
HSUEDDAKBggrBgEFBQcDATAMBgNVHRMBAf8EAjAAMB8GA1UdIwQYMBaAFCzbFYYW
gS1pptTMhIFvtz5XO4HuMBcGA1UdEQQQMA6CDHNob3AuZXhhbXBsZTAKBggqhkjO
PQQDAgNHADBEAiAwr+BWXrLi177h0YTlf3O6JMfYOp7NeBjbyb0/EHrEaQIgIFXI
FBlTgR7MGF35t95tLuSAqgLV5ARGI+0b5LM3OW0=
-----END CERTIFICATE-----`
	exampleIntermediateCert = `-----BEGIN CERTIFICATE-----
MIIBlDCCATmgAwIBAgIELJNgtTAKBggqhkjOPQQDAjAaMRgwFgYDVQQDEw9FeGFt
cGxlIFJvb3QgQ0EwIBcNMjUwMTAxMDAwMDAwWhgPOTk5OTEyMzEyMzU5NTlaMCIx
IDAeBgNVBAMTF0V4YW1wbGUgSW50ZXJtZWRpYXRlIENBMFkwEwYHKoZIzj0CAQYI
KoZIzj0DAQcDQgAECjYR2CVMcEqnC2Ls6UgLwK15q0gulXhoB01hXrviR20PUH72
7S/1u0TIqj7yzd7+XJA3v8zdtK930ReYtPW3p6NjMGEwDgYDVR0PAQH/BAQDAgGG
MA8GA1UdEwEB/wQFMAMBAf8wHQYDVR0OBBYEFCzbFYYWgS1pptTMhIFvtz5XO4Hu
MB8GA1UdIwQYMBaAFHKNghv5GqjQ5is43G3M0Cn+Tjz7MAoGCCqGSM49BAMCA0kA
MEYCIQDouAroLGehCNhuBqn52DCFkG1R5Po+AJQyB10hEvPu1wIhAIxz5zVPkk8x
Z/grg9OkQhwQZNciX+Uv6uSd23AB70rL
-----END CERTIFICATE-----`
	exampleWeakCert = `-----BEGIN CERTIFICATE-----
MIIB9DCCAV2gAwIBAgIELJiUijANBgkqhkiG9w0BAQsFADAWMRQwEgYDVQQDEwtv
bGQuZXhhbXBsZTAgFw0yNTAxMDEwMDAwMDBaGA85OTk5MTIzMTIzNTk1OVowFjEU
MBIGA1UEAxMLb2xkLmV4YW1wbGUwgZ8wDQYJKoZIhvcNAQEBBQADgY0AMIGJAoGB
AM57YPky7Aeic4TT4PDM5OlCmNwVAb6aQryzugqLir+VEU4STBgKAw3LWfLV/XYF
Qure9ks6rAtpoZUD8hCu/13elgsdU9LosiEI6rSJQfJofBFayv30UnHQ4dFx1fbZ
uSqBPY/PNIyXe8gwexuD0FiC6H0TneLla8JDfR51iwmDAgMBAAGjTTBLMA4GA1Ud
DwEB/wQEAwIHgDATBgNVHSUEDDAKBggrBgEFBQcDATAMBgNVHRMBAf8EAjAAMBYG
A1UdEQQPMA2CC29sZC5leGFtcGxlMA0GCSqGSIb3DQEBCwUAA4GBAF2umtEmQJmA
bwh/mHk/rdGew4tTI9sLP+wJtH7K7Z36cmblXpALcLqoLv9XLtmCwFiocf6TP1fR
7SbFncY7cvbnoYqBqAEyQ8/Jm0F/kPAQgQvweIOUkETLHlxMRehEd/Vv73JGKa40
xkDntKcDjTiLac2uKhwsa7lhbtfRiDgp
-----END CERTIFICATE-----`
)
