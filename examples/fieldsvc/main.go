// Command fieldsvc is augur's example to deploy with augur field: an in-memory document store
// served over HTTP, with requests of five kinds (get, put, delete, list, search) whose work
// branches on the store's contents, so that sites with different usage make the code take
// different paths. Package traffic plays such sites.
//
//	fieldsvc -addr 127.0.0.1:0 -addr-file addr.txt
//
// serves POST /do (a JSON Request, answered with a JSON Response) until POST /quit, then exits
// normally (so a deployed variant's counts are flushed at exit).
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "the address to listen on")
	addrFile := flag.String("addr-file", "", "write the address listened on to this file")
	flag.Parse()
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		fmt.Fprintln(os.Stderr, "fieldsvc:", err)
		os.Exit(1)
	}
	if *addrFile != "" {
		if err := os.WriteFile(*addrFile, []byte(ln.Addr().String()), 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "fieldsvc:", err)
			os.Exit(1)
		}
	}
	srv := &http.Server{}
	srv.Handler = NewHandler(NewStore(), func() { go srv.Shutdown(context.Background()) })
	if err := srv.Serve(ln); err != http.ErrServerClosed {
		fmt.Fprintln(os.Stderr, "fieldsvc:", err)
		os.Exit(1)
	}
}

// NewHandler serves s over HTTP; POST /quit calls quit.
func NewHandler(s *Store, quit func()) http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /do", func(w http.ResponseWriter, req *http.Request) {
		var r Request
		if err := json.NewDecoder(http.MaxBytesReader(w, req.Body, 1<<16)).Decode(&r); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(s.Handle(r))
	})
	mux.HandleFunc("POST /quit", func(w http.ResponseWriter, req *http.Request) {
		w.WriteHeader(http.StatusNoContent)
		quit()
	})
	return mux
}
