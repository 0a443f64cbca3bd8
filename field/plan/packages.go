package plan

import (
	"sort"
	"strings"
)

// Packages are the import paths of the functions the manifest's units are in, sorted.
func (m *Manifest) Packages() []string {
	seen := map[string]bool{}
	for _, u := range m.Units {
		if pkg := funcPackage(u.Func); pkg != "" {
			seen[pkg] = true
		}
	}
	var out []string
	for p := range seen {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

// funcPackage is the import path of a function named as frontend.Func.Name
// (import/path.Func, import/path.(*T).M).
func funcPackage(name string) string {
	slash := strings.LastIndex(name, "/")
	dot := strings.Index(name[slash+1:], ".")
	if dot < 0 {
		return ""
	}
	return name[:slash+1+dot]
}
