// Command drive plays one site of examples/fieldsvc against a running service:
//
//	go run ./examples/fieldsvc/drive -url http://127.0.0.1:8080 -site 3 -n 2000 [-quit]
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"sort"

	"github.com/augur-perf/augur/examples/fieldsvc/traffic"
)

func main() {
	url := flag.String("url", "", "the service, http://host:port")
	site := flag.Int("site", 0, "the site to play (its mix is traffic.Mixes[site % 4])")
	n := flag.Int("n", 1000, "the number of requests")
	quit := flag.Bool("quit", false, "stop the service afterwards (POST /quit)")
	flag.Parse()
	if *url == "" {
		fmt.Fprintln(os.Stderr, "drive: -url is required")
		os.Exit(2)
	}
	statuses, err := traffic.Play(http.DefaultClient, *url, traffic.Site(*site, *n))
	if err != nil {
		fmt.Fprintln(os.Stderr, "drive:", err)
		os.Exit(1)
	}
	var codes []int
	for c := range statuses {
		codes = append(codes, c)
	}
	sort.Ints(codes)
	fmt.Printf("site %d (%s): %d requests;", *site, traffic.Mixes[*site%len(traffic.Mixes)].Name, *n)
	for _, c := range codes {
		fmt.Printf(" %d×%d", statuses[c], c)
	}
	fmt.Println()
	if *quit {
		if resp, err := http.Post(*url+"/quit", "", nil); err == nil {
			resp.Body.Close()
		}
	}
}
