// Package certfile reads the certificate and key files nginx loads at
// startup as nginx reads them (ngx_ssl_certificate,
// src/event/ngx_event_openssl.c) and answers what the certificate rules
// ask of them: whether the key matches, whether the chain is in order and
// complete, which names the certificate covers, whether it is in its
// validity period, and whether OpenSSL refuses it as weak. It uses Go's
// crypto/x509 and never the network.
package certfile

import (
	"bytes"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/rsa"
	"crypto/x509"
	"encoding/pem"
	"errors"
	"fmt"
	"net"
	"strings"
	"time"

	"github.com/nginx-lint/nginx-lint/parser/grammar"
)

// Chain is an ssl_certificate file: the server's certificate first, then
// the certificates nginx sends with it (SSL_CTX_add1_chain_cert), in the
// file's order.
type Chain struct {
	Certs []*x509.Certificate
}

// Leaf is the server's certificate: the file's first.
func (c *Chain) Leaf() *x509.Certificate { return c.Certs[0] }

// ErrNoCertificate is a file with no certificate nginx can read: nginx
// stops with `cannot load certificate "...": PEM_read_bio_X509_AUX()
// failed`.
var ErrNoCertificate = errors.New("PEM_read_bio_X509_AUX() failed (no certificate in the file)")

// ReadChain reads the certificates of an ssl_certificate file (or the
// text after "data:"). Like PEM_read_bio_X509, it takes the PEM blocks
// named CERTIFICATE (TRUSTED CERTIFICATE, X509 CERTIFICATE) and skips
// the others, so a file that holds the key too reads the same.
func ReadChain(data []byte) (*Chain, error) {
	c := &Chain{}
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			break
		}
		switch b.Type {
		case "CERTIFICATE", "TRUSTED CERTIFICATE", "X509 CERTIFICATE":
		default:
			continue
		}
		cert, err := x509.ParseCertificate(b.Bytes)
		if err != nil {
			if len(c.Certs) == 0 {
				return nil, fmt.Errorf("PEM_read_bio_X509_AUX() failed (%v)", err)
			}
			return nil, fmt.Errorf("PEM_read_bio_X509() failed (certificate %d: %v)", len(c.Certs)+1, err)
		}
		c.Certs = append(c.Certs, cert)
	}
	if len(c.Certs) == 0 {
		return nil, ErrNoCertificate
	}
	return c, nil
}

// ErrEncrypted is a key under a passphrase (ssl_password_file): its
// public half cannot be read without it.
var ErrEncrypted = errors.New("the key is encrypted")

// ErrNoKey is a file with no private key nginx can read: nginx stops with
// `cannot load certificate key "...": PEM_read_bio_PrivateKey() failed`.
var ErrNoKey = errors.New("PEM_read_bio_PrivateKey() failed (no private key in the file)")

// ReadKey reads the first private key of an ssl_certificate_key file and
// returns its public half. A key under a passphrase is ErrEncrypted.
func ReadKey(data []byte) (crypto.PublicKey, error) {
	for rest := data; ; {
		var b *pem.Block
		b, rest = pem.Decode(rest)
		if b == nil {
			return nil, ErrNoKey
		}
		if !strings.HasSuffix(b.Type, "PRIVATE KEY") {
			continue
		}
		if b.Type == "ENCRYPTED PRIVATE KEY" || b.Headers["Proc-Type"] != "" {
			return nil, ErrEncrypted
		}
		var k any
		var err error
		switch b.Type {
		case "RSA PRIVATE KEY":
			k, err = x509.ParsePKCS1PrivateKey(b.Bytes)
		case "EC PRIVATE KEY":
			k, err = x509.ParseECPrivateKey(b.Bytes)
		default:
			k, err = x509.ParsePKCS8PrivateKey(b.Bytes)
		}
		if err != nil {
			return nil, fmt.Errorf("PEM_read_bio_PrivateKey() failed (%v)", err)
		}
		if s, ok := k.(crypto.Signer); ok {
			return s.Public(), nil
		}
		return nil, fmt.Errorf("PEM_read_bio_PrivateKey() failed (a %T)", k)
	}
}

// KeyMatches reports whether pub is the public key of cert: what
// SSL_CTX_use_PrivateKey checks ("key values mismatch").
func KeyMatches(cert *x509.Certificate, pub crypto.PublicKey) bool {
	type equaler interface{ Equal(crypto.PublicKey) bool }
	if e, ok := cert.PublicKey.(equaler); ok {
		return e.Equal(pub)
	}
	return false
}

// Issued reports whether parent issued child: child's issuer is parent's
// subject and, where both say, the key identifiers agree, and parent's
// key verifies child's signature (a SHA-1 signature, which Go will not
// verify, counts by the names alone).
func Issued(child, parent *x509.Certificate) bool {
	if !bytes.Equal(child.RawIssuer, parent.RawSubject) {
		return false
	}
	if len(child.AuthorityKeyId) > 0 && len(parent.SubjectKeyId) > 0 && !bytes.Equal(child.AuthorityKeyId, parent.SubjectKeyId) {
		return false
	}
	err := parent.CheckSignature(child.SignatureAlgorithm, child.RawTBSCertificate, child.Signature)
	var insecure x509.InsecureAlgorithmError
	return err == nil || errors.As(err, &insecure)
}

// SelfIssued reports whether c names itself as its issuer (a root).
func SelfIssued(c *x509.Certificate) bool { return bytes.Equal(c.RawIssuer, c.RawSubject) }

// Problem is one finding about a chain: a message and what to do.
type Problem struct {
	Message, Detail string
}

// Order checks that each certificate of the chain is issued by the next,
// as TLS (RFC 5246 7.4.2) wants them sent, and that every certificate
// after the first serves the chain. It says nothing of a first
// certificate that is not the server's: KeyMatches tells.
func (c *Chain) Order() []Problem {
	var out []Problem
	certs := c.Certs
	// The server's certificate is the one that is no CA and issued none
	// of the others; when it is not first, that is the problem to fix.
	for i, x := range certs {
		if i > 0 && !x.IsCA && !usedBy(certs, i) && (certs[0].IsCA || Issued(x, certs[0])) {
			return []Problem{{
				Message: fmt.Sprintf("the server's certificate (%s) is certificate %d of the file, after %s: it must come first", Name(x), i+1, Name(certs[0])),
				Detail:  "order the file as TLS sends it: the server's certificate, then each issuer after the certificate it issued (cat server.crt intermediate.crt > fullchain.crt); nginx takes the first certificate for the server's",
			}}
		}
	}
	for i := 1; i < len(certs); i++ {
		if Issued(certs[i-1], certs[i]) {
			continue
		}
		// Which certificate of the file issued certs[i-1], if any.
		at := -1
		for j, p := range certs {
			if j != i-1 && Issued(certs[i-1], p) {
				at = j
				break
			}
		}
		switch {
		case at >= 0:
			out = append(out, Problem{
				Message: fmt.Sprintf("certificate %d of the chain (%s) is not issued by the next (%s) but by certificate %d: the chain is out of order", i, Name(certs[i-1]), Name(certs[i]), at+1),
				Detail:  "order the file as TLS sends it: the server's certificate, then each issuer after the certificate it issued (cat server.crt intermediate.crt > fullchain.crt); clients that do not reorder fail to verify it",
			})
		case !usedBy(certs, i):
			out = append(out, Problem{
				Message: fmt.Sprintf("certificate %d of the chain (%s) issued none of the others: it does not belong to this chain", i+1, Name(certs[i])),
				Detail:  "remove it: nginx sends it to every client for nothing, and a client may take it for the issuer it lacks",
			})
		}
	}
	return out
}

// usedBy reports whether the certificate at i issued another one of
// certs.
func usedBy(certs []*x509.Certificate, i int) bool {
	for j, c := range certs {
		if j != i && Issued(c, certs[i]) {
			return true
		}
	}
	return false
}

// Incomplete reports what is missing between the chain and a root when
// the file holds the server's certificate alone and its issuer is neither
// in the file nor among roots: the intermediate certificate(s) that
// clients need and nginx does not send. A chain that ends in a CA is
// taken as complete: its root is the client's to have. nil roots skip the
// check.
func (c *Chain) Incomplete(roots *x509.CertPool) *Problem {
	if roots == nil || len(c.Certs) != 1 {
		return nil
	}
	leaf := c.Certs[0]
	if SelfIssued(leaf) || leaf.IsCA {
		return nil
	}
	opts := x509.VerifyOptions{Roots: roots, CurrentTime: midpoint(leaf), KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageAny}}
	_, err := leaf.Verify(opts)
	var unknown x509.UnknownAuthorityError
	if err == nil || !errors.As(err, &unknown) {
		return nil
	}
	return &Problem{
		Message: fmt.Sprintf("the chain stops at the server's certificate (%s), issued by %s, which is neither in the file nor a root this machine trusts: the intermediate certificate is missing", Name(leaf), issuerName(leaf)),
		Detail:  "append the intermediate certificate(s) after the server's (Let's Encrypt: fullchain.pem, not cert.pem): browsers that have not cached it, and every other client, fail to verify the server; if the issuer is a private root, name it in ssl_trusted_certificate",
	}
}

// midpoint is a time within c's validity, so that a chain check is not
// about expiry (which Expiry reports).
func midpoint(c *x509.Certificate) time.Time {
	return c.NotBefore.Add(c.NotAfter.Sub(c.NotBefore) / 2)
}

// issuerName is c's issuer as messages name it: its common name, else
// the whole name.
func issuerName(c *x509.Certificate) string {
	if c.Issuer.CommonName != "" {
		return `"` + c.Issuer.CommonName + `"`
	}
	return `"` + c.Issuer.String() + `"`
}

// Name is a certificate as messages name it: its subject's common name,
// else its first DNS name, else its whole subject.
func Name(c *x509.Certificate) string {
	switch {
	case c.Subject.CommonName != "":
		return `"` + c.Subject.CommonName + `"`
	case len(c.DNSNames) > 0:
		return `"` + c.DNSNames[0] + `"`
	}
	return `"` + c.Subject.String() + `"`
}

// Covers reports whether the certificate serves n, a server_name, to a
// client: an exact name by VerifyHostname (subjectAltName only, wildcards
// one label deep, as browsers match), "*.example.com" when the
// certificate has that wildcard (or would match every such host: no
// subdomain listed is enough), ".example.com" when it covers both
// example.com and its subdomains. ok is false for names no certificate
// can be checked against: regexes, "www.example.*", "" and placeholders
// such as "_".
func Covers(c *x509.Certificate, n grammar.ServerName) (covered, ok bool) {
	if n.Placeholder || n.Hostname {
		return false, false
	}
	switch n.Kind {
	case grammar.NameExact:
		return c.VerifyHostname(n.Name) == nil, true
	case grammar.NameWildcardHead:
		return coversWildcard(c, n.Domain), true
	case grammar.NameDotWildcard:
		return c.VerifyHostname(n.Domain) == nil && coversWildcard(c, n.Domain), true
	}
	return false, false
}

// coversWildcard reports whether c serves every host under domain one
// label deep, which "*.domain" in its names does.
func coversWildcard(c *x509.Certificate, domain string) bool {
	for _, d := range c.DNSNames {
		if strings.EqualFold(d, "*."+domain) {
			return true
		}
	}
	return false
}

// Names lists what c covers, for a message: its DNS and IP names, or its
// common name when it has no subjectAltName (which clients ignore).
func Names(c *x509.Certificate) string {
	var names []string
	names = append(names, c.DNSNames...)
	for _, ip := range c.IPAddresses {
		names = append(names, net.IP(ip).String())
	}
	if len(names) == 0 {
		return "no subjectAltName (clients ignore its common name " + Name(c) + ")"
	}
	if len(names) > 6 {
		names = append(names[:6], fmt.Sprintf("and %d more", len(names)-6))
	}
	return strings.Join(names, ", ")
}

// Weakness says why OpenSSL at security level 2 (Debian's, Ubuntu's and
// RHEL's default, and OpenSSL's own since 3.2) refuses c, or "" when it
// does not: an RSA or DSA key under 2048 bits ("ee key too small", "ca
// key too small"), an elliptic curve under 224 bits, a signature by MD5
// or SHA-1 ("ca md too weak") on a certificate a CA issued (a
// self-signed certificate's own signature is not checked). leaf says
// whether c is the server's certificate.
func Weakness(c *x509.Certificate, leaf bool) string {
	small := "ca key too small"
	if leaf {
		small = "ee key too small"
	}
	switch k := c.PublicKey.(type) {
	case *rsa.PublicKey:
		if n := k.N.BitLen(); n < 2048 {
			return fmt.Sprintf("its RSA key has %d bits, under 2048 (%s)", n, small)
		}
	case *ecdsa.PublicKey:
		if n := k.Curve.Params().BitSize; n < 224 {
			return fmt.Sprintf("its %s key has %d bits, under 224 (%s)", k.Curve.Params().Name, n, small)
		}
	case ed25519.PublicKey:
	}
	if SelfIssued(c) {
		return ""
	}
	switch c.SignatureAlgorithm {
	case x509.SHA1WithRSA, x509.ECDSAWithSHA1, x509.DSAWithSHA1:
		return "it is signed with SHA-1 (ca md too weak)"
	case x509.MD5WithRSA, x509.MD2WithRSA:
		return "it is signed with " + c.SignatureAlgorithm.String() + " (ca md too weak)"
	}
	return ""
}

// Validity is where a time stands in a certificate's validity period.
type Validity int

// Validity states.
const (
	Valid Validity = iota
	NotYetValid
	Expired
)

// Expiry returns the certificate of the chain that expires first, and
// where now stands in the validity of the first of them not valid now
// (NotYetValid or Expired) or, all valid, Valid and the one that expires
// first.
func (c *Chain) Expiry(now time.Time) (*x509.Certificate, Validity) {
	first := c.Certs[0]
	for _, x := range c.Certs {
		switch {
		case now.After(x.NotAfter):
			return x, Expired
		case now.Before(x.NotBefore):
			return x, NotYetValid
		}
		if x.NotAfter.Before(first.NotAfter) {
			first = x
		}
	}
	return first, Valid
}
