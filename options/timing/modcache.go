package timing

import (
	"bufio"
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// relocate handles regions in dependencies. The go command refuses to overlay files in the
// module cache, so each cached module holding a replaced file is copied into dir, the
// replacements move to the copy, and the main module's go.mod is overlaid with a directory
// replace pointing at it. The module cache itself is only read. mainFile is a file of the main
// package, which locates the main module.
func relocate(replace map[string]string, dir, mainFile string) error {
	cache, err := goEnv(filepath.Dir(mainFile), "GOMODCACHE")
	if err != nil || cache == "" {
		return err
	}
	cache = filepath.Clean(cache) + string(filepath.Separator)
	copies := map[string]string{} // module root in the cache → its copy
	var mods []string             // module paths, in the order first met
	modOf := map[string]string{}  // module root → module path
	for orig := range replace {
		if !strings.HasPrefix(orig, cache) {
			continue
		}
		root := moduleRoot(orig, cache)
		if root == "" {
			return fmt.Errorf("%s: timing: cannot tell which module in the module cache holds this file", orig)
		}
		if _, ok := copies[root]; ok {
			continue
		}
		path, err := modulePath(root, cache)
		if err != nil {
			return err
		}
		dst := filepath.Join(dir, "mod"+strconv.Itoa(len(copies)))
		if err := copyTree(root, dst); err != nil {
			return fmt.Errorf("timing: copying %s: %v", path, err)
		}
		if _, err := os.Stat(filepath.Join(dst, "go.mod")); err != nil {
			// A module without go.mod gets the one the go command would have synthesised.
			if err := os.WriteFile(filepath.Join(dst, "go.mod"), []byte("module "+path+"\n"), 0o644); err != nil {
				return err
			}
		}
		copies[root], modOf[root] = dst, path
		mods = append(mods, root)
	}
	if len(copies) == 0 {
		return nil
	}
	for orig, rewritten := range replace {
		if !strings.HasPrefix(orig, cache) {
			continue
		}
		root := moduleRoot(orig, cache)
		rel, err := filepath.Rel(root, orig)
		if err != nil {
			return err
		}
		delete(replace, orig)
		replace[filepath.Join(copies[root], rel)] = rewritten
	}
	gomod, err := goEnv(filepath.Dir(mainFile), "GOMOD")
	if err != nil {
		return err
	}
	if gomod == "" || gomod == os.DevNull {
		return fmt.Errorf("%s: timing: regions in dependencies need the main package to be in a module", mainFile)
	}
	text, err := os.ReadFile(gomod)
	if err != nil {
		return err
	}
	var b bytes.Buffer
	b.Write(text)
	b.WriteString("\n// Added by augur: timed copies of dependencies.\n")
	for _, root := range mods {
		if hasReplace(text, modOf[root]) {
			return fmt.Errorf("%s: timing: the module already replaces %s; regions inside it cannot be timed", gomod, modOf[root])
		}
		fmt.Fprintf(&b, "replace %s => %s\n", modOf[root], copies[root])
	}
	dst := filepath.Join(dir, "go.mod")
	if err := os.WriteFile(dst, b.Bytes(), 0o644); err != nil {
		return err
	}
	replace[gomod] = dst
	return nil
}

func goEnv(dir, name string) (string, error) {
	cmd := exec.Command("go", "env", name)
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("timing: go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out)), nil
}

// moduleRoot is the directory of file's module in the cache: the first directory below the
// cache whose name carries "@version".
func moduleRoot(file, cache string) string {
	rel := strings.TrimPrefix(file, cache)
	parts := strings.Split(rel, string(filepath.Separator))
	for i, p := range parts[:len(parts)-1] {
		if strings.Contains(p, "@") {
			return filepath.Join(append([]string{cache}, parts[:i+1]...)...)
		}
	}
	return ""
}

// modulePath reads the module path from the module's go.mod, or else from its place in the
// cache (where capitals are escaped as "!x").
func modulePath(root, cache string) (string, error) {
	if f, err := os.Open(filepath.Join(root, "go.mod")); err == nil {
		defer f.Close()
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module "); ok {
				return strings.Trim(strings.TrimSpace(rest), `"`), nil
			}
		}
	}
	rel := filepath.ToSlash(strings.TrimPrefix(root, cache))
	rel = rel[:strings.LastIndex(rel, "@")]
	var b strings.Builder
	for i := 0; i < len(rel); i++ {
		if rel[i] == '!' && i+1 < len(rel) {
			i++
			b.WriteString(strings.ToUpper(rel[i : i+1]))
			continue
		}
		b.WriteByte(rel[i])
	}
	return b.String(), nil
}

func hasReplace(gomod []byte, path string) bool {
	for _, line := range strings.Split(string(gomod), "\n") {
		f := strings.Fields(strings.TrimPrefix(strings.TrimSpace(line), "replace"))
		if strings.HasPrefix(strings.TrimSpace(line), "replace") && len(f) > 0 && f[0] == path {
			return true
		}
	}
	return false
}

// copyTree copies a directory, making the copies writable (module cache files are read-only).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}
