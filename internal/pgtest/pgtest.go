// Package pgtest starts a throw-away PostgreSQL server for tests: a fresh cluster in a temporary
// directory, reachable only on a unix socket, stopped when the test ends. It owns nothing else
// and imports nothing of augur.
//
// initdb refuses to run as root, and CI runs as root: there the server runs as the unprivileged
// user nobody (setpriv, uid and gid 65534), in a directory made accessible to it.
package pgtest

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"
)

// Bin is where Debian's postgresql package puts the server binaries (the newest version
// installed), or "" when there are none.
var Bin = func() string {
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/postgres")
	sort.Strings(found)
	if len(found) == 0 {
		return ""
	}
	return filepath.Dir(found[len(found)-1])
}()

// Server is a running throw-away cluster.
type Server struct {
	// DSN connects to the database "augur" as the superuser "augur" over the socket.
	DSN string
	cmd *exec.Cmd
}

var port atomic.Int32

// Start starts a cluster for t, or skips t loudly when the server binaries are absent. settings
// are extra "name=value" server settings (for example "fsync=off").
func Start(t testing.TB, settings ...string) *Server {
	t.Helper()
	if Bin == "" {
		t.Skip("SKIPPED: NO POSTGRESQL SERVER in /usr/lib/postgresql/*/bin: install Debian's postgresql package (.ci/run does when it runs as root) to run the PostgreSQL tests")
	}
	dir, err := os.MkdirTemp("", "augur-pgtest-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	asNobody := os.Geteuid() == 0
	if asNobody {
		if err := os.Chown(dir, 65534, 65534); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) *exec.Cmd {
		path := filepath.Join(Bin, name)
		if asNobody {
			return exec.Command("setpriv", append([]string{"--reuid=65534", "--regid=65534", "--clear-groups", path}, args...)...)
		}
		return exec.Command(path, args...)
	}
	data := filepath.Join(dir, "data")
	initdb := run("initdb", "-D", data, "-A", "trust", "-U", "augur", "--no-sync", "-E", "UTF8")
	if out, err := initdb.CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	// The port only names the socket file; several clusters may share the directory tree.
	p := 20000 + int(port.Add(1)) + os.Getpid()%10000
	args := []string{"-D", data, "-k", dir, "-p", strconv.Itoa(p), "-c", "listen_addresses=", "-c", "max_connections=200"}
	for _, s := range settings {
		args = append(args, "-c", s)
	}
	cmd := run("postgres", args...)
	logPath := filepath.Join(dir, "postgres.log")
	log, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	cmd.Stdout, cmd.Stderr = log, log
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &Server{cmd: cmd, DSN: fmt.Sprintf("host=%s port=%d user=augur dbname=postgres sslmode=disable", dir, p)}
	t.Cleanup(func() {
		cmd.Process.Signal(syscall.SIGINT) // fast shutdown
		done := make(chan struct{})
		go func() { cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			cmd.Process.Kill()
			<-done
		}
	})
	for deadline := time.Now().Add(30 * time.Second); ; {
		ready := exec.Command(filepath.Join(Bin, "pg_isready"), "-q", "-h", dir, "-p", strconv.Itoa(p))
		if ready.Run() == nil {
			break
		}
		if time.Now().After(deadline) {
			out, _ := os.ReadFile(logPath)
			t.Fatalf("postgres was not ready within 30 s:\n%s", out)
		}
		time.Sleep(50 * time.Millisecond)
	}
	return s
}
