package main

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/augur-perf/augur/markov/pctl"
)

func main() {
	counts := map[string]int{}
	examples := map[string]string{}
	total, bad, fileErr := 0, 0, 0
	filepath.Walk(os.Args[1], func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(path, ".props") {
			return nil
		}
		// DTMC models only: .pm files, or a model file that says dtmc.
		model := strings.TrimSuffix(path, filepath.Ext(path))
		for !fileExists(model) && strings.Contains(filepath.Base(model), ".") {
			model = strings.TrimSuffix(model, filepath.Ext(model))
		}
		src, _ := os.ReadFile(model)
		if !strings.Contains(string(src), "dtmc") && !strings.Contains(string(src), "probabilistic") {
			return nil
		}
		data, _ := os.ReadFile(path)
		f, err := pctl.ParseFile(string(data))
		if err != nil {
			fileErr++
			key := "FILE: " + trim(err.Error())
			counts[key]++
			examples[key] = path
			return nil
		}
		for _, p := range f.Props {
			total++
			if p.Err != nil {
				bad++
				key := trim(p.Err.Error())
				counts[key]++
				examples[key] = path + ": " + p.Text
			}
		}
		return nil
	})
	fmt.Printf("%d properties, %d fail to parse, %d files fail\n", total, bad, fileErr)
	keys := make([]string, 0, len(counts))
	for k := range counts {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return counts[keys[i]] > counts[keys[j]] })
	for _, k := range keys {
		fmt.Printf("%4d %s\n     e.g. %s\n", counts[k], k, examples[k])
	}
}

func trim(s string) string {
	if i := strings.Index(s, ": "); i >= 0 && strings.HasPrefix(s, "line") {
		s = s[i+2:]
	}
	return s
}

func fileExists(p string) bool { st, err := os.Stat(p); return err == nil && !st.IsDir() }
