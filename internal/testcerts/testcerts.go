// Package testcerts makes X.509 certificates and keys for tests with Go's
// crypto: self-signed ones, CAs and the certificates they issue, expired,
// not yet valid, for chosen names, with weak keys or SHA-1 signatures. No
// certificate is kept in the repository: each test makes what it needs.
package testcerts

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"net"
	"sync/atomic"
	"time"
)

// Cert is a certificate with its private key, each also in PEM.
type Cert struct {
	Cert    *x509.Certificate
	Key     crypto.Signer
	PEM     []byte // the certificate
	KeyPEM  []byte // the key, PKCS #8
	Subject string // the common name
}

// Options say what certificate New makes. The zero value is a
// self-signed ECDSA P-256 certificate for "example.com", valid from an
// hour ago for 90 days.
type Options struct {
	// CN is the subject's common name (default "example.com").
	CN string
	// DNS and IPs are the subjectAltNames; with none, a certificate that
	// is not a CA gets CN as its one DNS name.
	DNS []string
	IPs []net.IP
	// NotBefore and NotAfter bound its validity (defaults: an hour ago,
	// 90 days on).
	NotBefore, NotAfter time.Time
	// Parent issues it; nil makes it self-signed.
	Parent *Cert
	// CA makes it a certificate authority (basicConstraints CA:TRUE).
	CA bool
	// RSABits makes an RSA key of that size instead of ECDSA P-256.
	RSABits int
	// SHA1 signs it with SHA-1 (RSA or ECDSA after its issuer's key).
	SHA1 bool
	// NoSAN leaves out the subjectAltNames: the name is the CN alone.
	NoSAN bool
}

var serial atomic.Int64

// New makes a certificate as o says. It panics on a crypto error, which
// only a broken machine gives: tests call it at will.
func New(o Options) *Cert {
	if o.CN == "" {
		o.CN = "example.com"
	}
	now := time.Now()
	if o.NotBefore.IsZero() {
		o.NotBefore = now.Add(-time.Hour)
	}
	if o.NotAfter.IsZero() {
		o.NotAfter = now.Add(90 * 24 * time.Hour)
	}
	var key crypto.Signer
	var err error
	if o.RSABits > 0 {
		key, err = rsa.GenerateKey(rand.Reader, o.RSABits)
	} else {
		key, err = ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	}
	if err != nil {
		panic(err)
	}
	tpl := &x509.Certificate{
		SerialNumber:          big.NewInt(serial.Add(1) + now.UnixNano()%1e9),
		Subject:               pkix.Name{CommonName: o.CN},
		NotBefore:             o.NotBefore,
		NotAfter:              o.NotAfter,
		BasicConstraintsValid: true,
		IsCA:                  o.CA,
		KeyUsage:              x509.KeyUsageDigitalSignature,
	}
	if o.CA {
		tpl.KeyUsage |= x509.KeyUsageCertSign | x509.KeyUsageCRLSign
	} else {
		tpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		if !o.NoSAN {
			tpl.DNSNames, tpl.IPAddresses = o.DNS, o.IPs
			if len(o.DNS) == 0 && len(o.IPs) == 0 {
				tpl.DNSNames = []string{o.CN}
			}
		}
	}
	parent, signer := tpl, key
	if o.Parent != nil {
		parent, signer = o.Parent.Cert, o.Parent.Key
	}
	if o.SHA1 {
		if _, ok := signer.(*rsa.PrivateKey); ok {
			tpl.SignatureAlgorithm = x509.SHA1WithRSA
		} else {
			tpl.SignatureAlgorithm = x509.ECDSAWithSHA1
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tpl, parent, key.Public(), signer)
	if err != nil {
		panic(fmt.Sprintf("testcerts: %v", err))
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		panic(err)
	}
	kder, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		panic(err)
	}
	return &Cert{Cert: cert, Key: key, Subject: o.CN,
		PEM:    pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}),
		KeyPEM: pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: kder})}
}

// Chain is the PEM of certificates one after the other, as a fullchain
// file holds them.
func Chain(certs ...*Cert) []byte {
	var out []byte
	for _, c := range certs {
		out = append(out, c.PEM...)
	}
	return out
}
