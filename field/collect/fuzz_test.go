package collect

import (
	"bytes"
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"encoding/pem"
	"math/big"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/augur-perf/augur/field/store"
	"github.com/augur-perf/augur/field/wire"
)

// FuzzPost sends arbitrary bodies and Authorization headers through the whole handler: every
// answer is one of the protocol's, with a JSON body, never a panic; a 200 only for a body that
// wire decodes and validates against the token's release.
func FuzzPost(f *testing.F) {
	st, tok1, tok2 := setup(f, filepath.Join(f.TempDir(), "f.sqlite"))
	defer st.Close()
	s := New(st, Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	h := s.Handler()
	m := testManifest("r1", 20, 4, 6)
	f.Add("Bearer "+tok1, encode(f, testPackage(m, 1, "s", 1, 3)))
	f.Add("Bearer "+tok2, encode(f, testPackage(m, 2, "s", 2, 3)))
	f.Add("Bearer "+tok1, []byte(`{"format":"augur-field-package/1","release":"r1","variant":1,"site":"s","seq":3,"uptime_s":1,"counts":[{"p":1,"n":1,"out":[1]}]}`))
	f.Add("Bearer", []byte(`{}`))
	f.Add("Basic "+tok1, []byte(`[`))
	allowed := map[int]bool{200: true, 400: true, 401: true, 403: true, 413: true, 429: true, 503: true}
	f.Fuzz(func(t *testing.T, auth string, body []byte) {
		req := httptest.NewRequest("POST", "/v1/packages", bytes.NewReader(body))
		req.Header.Set("Authorization", auth)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if !allowed[w.Code] {
			t.Fatalf("status %d", w.Code)
		}
		var a map[string]string
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
			t.Fatalf("answer %q is not JSON", w.Body.String())
		}
		if w.Code == 200 {
			p, err := wire.Decode(bytes.NewReader(body))
			if err != nil || p.Release != "r1" && p.Release != "r2" {
				t.Fatalf("200 for a body wire refuses (%v)", err)
			}
		}
	})
}

// FuzzBatch sends arbitrary bodies to /v1/batches through the whole handler: a 200 only for a
// body wire.SplitBatch accepts, with one result per line, each accepted or duplicate line one
// that wire decodes as a package of the token's release and each rejected line one that wire
// refuses or that is another release's; other answers are the protocol's JSON errors.
func FuzzBatch(f *testing.F) {
	st, tok1, _ := setup(f, filepath.Join(f.TempDir(), "f.sqlite"))
	defer st.Close()
	s := New(st, Options{}, nil)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Run(ctx)
	h := s.Handler()
	m := testManifest("r1", 20, 4, 6)
	one, two := encode(f, testPackage(m, 1, "s", 1, 3)), encode(f, testPackage(m, 2, "s", 2, 3))
	f.Add(append(append([]byte{}, one...), two...))
	f.Add(append(append([]byte{}, one...), one...))
	f.Add(append(append([]byte{}, encode(f, testPackage(testManifest("r2", 20, 4, 6), 1, "s", 1, 3))...), `{"format":`...))
	f.Add([]byte("\n"))
	f.Add([]byte(`{}`))
	allowed := map[int]bool{200: true, 400: true, 413: true, 429: true, 503: true}
	f.Fuzz(func(t *testing.T, body []byte) {
		req := httptest.NewRequest("POST", "/v1/batches", bytes.NewReader(body))
		req.Header.Set("Authorization", "Bearer "+tok1)
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if !allowed[w.Code] {
			t.Fatalf("status %d", w.Code)
		}
		lines, splitErr := wire.SplitBatch(body)
		if w.Code != 200 {
			var a map[string]string
			if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil || a["error"] == "" {
				t.Fatalf("answer %q is not a JSON error", w.Body.String())
			}
			if w.Code == 400 && splitErr == nil {
				t.Fatalf("400 for a batch wire splits: %s", w.Body.String())
			}
			return
		}
		var a wire.BatchAnswer
		if err := json.Unmarshal(w.Body.Bytes(), &a); err != nil {
			t.Fatalf("answer %q is not a batch answer", w.Body.String())
		}
		if splitErr != nil || len(a.Results) != len(lines) {
			t.Fatalf("200 with %d results for %d lines (%v)", len(a.Results), len(lines), splitErr)
		}
		for i, r := range a.Results {
			p, err := wire.Decode(bytes.NewReader(lines[i]))
			switch r.Status {
			case "accepted", "duplicate":
				if err != nil || p.Release != "r1" || p.Validate(m) != nil {
					t.Fatalf("line %d %q %s, but wire says %v", i+1, lines[i], r.Status, err)
				}
			case "rejected":
				if err == nil && p.Release == "r1" && p.Validate(m) == nil && p.Seq <= uint64(store.MaxSeq) {
					t.Fatalf("line %d %q rejected (%s), but wire accepts it", i+1, lines[i], r.Error)
				}
				if r.Code != 400 && r.Code != 403 || r.Error == "" {
					t.Fatalf("line %d: rejected with %d %q", i+1, r.Code, r.Error)
				}
			default:
				t.Fatalf("line %d: status %q", i+1, r.Status)
			}
		}
	})
}

// TestServeTLS serves HTTPS with a certificate made here and takes a package over it.
func TestServeTLS(t *testing.T) {
	dir := t.TempDir()
	certFile, keyFile := filepath.Join(dir, "cert.pem"), filepath.Join(dir, "key.pem")
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "collector"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}, KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	kder, _ := x509.MarshalECPrivateKey(key)
	os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der}), 0o600)
	os.WriteFile(keyFile, pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: kder}), 0o600)

	st, tok1, _ := setup(t, filepath.Join(dir, "f.sqlite"))
	defer st.Close()
	ctx, cancel := context.WithCancel(context.Background())
	addrc := make(chan net.Addr, 1)
	errc := make(chan error, 1)
	go func() {
		errc <- Serve(ctx, "127.0.0.1:0", certFile, keyFile, New(st, Options{}, nil), func(a net.Addr) { addrc <- a })
	}()
	addr := <-addrc
	pool := x509.NewCertPool()
	cert, _ := x509.ParseCertificate(der)
	pool.AddCert(cert)
	client := &http.Client{Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool}}}
	body := encode(t, testPackage(testManifest("r1", 20, 4, 6), 1, "s", 1, 2))
	req, _ := http.NewRequest("POST", "https://"+addr.String()+"/v1/packages", bytes.NewReader(body))
	req.Header.Set("Authorization", "Bearer "+tok1)
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.TLS == nil {
		t.Errorf("over HTTPS: %d, TLS %v", resp.StatusCode, resp.TLS != nil)
	}
	cancel()
	if err := <-errc; err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// FuzzCanonical: whatever the fast reader accepts, wire.Decode accepts as the same package; what
// it accepts but Check refuses, wire refuses too.
func FuzzCanonical(f *testing.F) {
	m := testManifest("r1", 20, 4, 6)
	f.Add(encode(f, testPackage(m, 1, "s", 1, 3)))
	sampled := testPackage(m, 2, "site-9.x:y_z", 1<<40, 7)
	sampled.Rate, sampled.Uptime = 0.125, 1e-7
	f.Add(encode(f, sampled))
	f.Add([]byte(`{"format":"augur-field-package/1","release":"r1","variant":1,"site":"s","seq":1,"uptime_s":0,"counts":null}`))
	f.Add([]byte(`{"format":"augur-field-package/1","release":"r1","variant":1,"site":"s","seq":1,"uptime_s":1.5E+3,"counts":[{"p":1,"n":2,"out":[1,1]}]}` + "\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		p, ok := decodeCanonical(b)
		if !ok {
			return
		}
		q, err := wire.Decode(bytes.NewReader(b))
		if p.Check() != nil {
			if err == nil {
				t.Fatalf("%q: Check refuses the fast reading %+v, wire accepts %+v", b, p, q)
			}
			return
		}
		if err != nil || !reflect.DeepEqual(p, q) {
			t.Fatalf("%q: fast %+v, wire %+v, %v", b, p, q, err)
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	body := encode(b, testPackage(testManifest("r1", 1000, 12, 100), 1, "site", 1, 5))
	b.Run("wire", func(b *testing.B) {
		for b.Loop() {
			if _, err := wire.Decode(bytes.NewReader(body)); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("canonical", func(b *testing.B) {
		for b.Loop() {
			if p, ok := decodeCanonical(body); !ok || p.Check() != nil {
				b.Fatal("not canonical")
			}
		}
	})
}
