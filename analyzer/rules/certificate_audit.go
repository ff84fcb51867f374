package rules

import (
	"crypto"
	"crypto/x509"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/nginx-lint/nginx-lint/analyzer"
	"github.com/nginx-lint/nginx-lint/analyzer/certfile"
	"github.com/nginx-lint/nginx-lint/parser"
)

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
		if d == nil || len(d.Args) != 1 {
			return nil, false, nil
		}
		v := d.Args[0].Value
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
	if len(d.Args) > 0 {
		return d.Args[0].Range
	}
	return d.Name.Range
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
	if d == nil || len(d.Args) == 0 {
		return ""
	}
	v := d.Args[0].Value
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
