package collect

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"
	"time"
)

// Serve listens on addr (HTTPS when certFile and keyFile are given) and serves s until ctx ends;
// ready, if not nil, learns the address listened on. On the way out it stops taking requests,
// answers those under way (their batches committed), then stops the committers.
func Serve(ctx context.Context, addr, certFile, keyFile string, s *Server, ready func(net.Addr)) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	if ready != nil {
		ready(ln.Addr())
	}
	hs := &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      30 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    16 << 10,
	}
	commitCtx, stopCommits := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.Run(commitCtx)
	}()
	errc := make(chan error, 1)
	go func() {
		if certFile != "" || keyFile != "" {
			errc <- hs.ServeTLS(ln, certFile, keyFile)
		} else {
			errc <- hs.Serve(ln)
		}
	}()
	select {
	case err = <-errc:
	case <-ctx.Done():
		shutdown, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		err = hs.Shutdown(shutdown)
		cancel()
	}
	stopCommits()
	wg.Wait()
	if errors.Is(err, http.ErrServerClosed) {
		err = nil
	}
	return err
}
