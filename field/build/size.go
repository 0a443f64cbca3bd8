package build

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a byte size for Options.SpoolMax: 16MB, 512KB, 1GB or a number of bytes
// (units are powers of 1024, case ignored). It is positive or an error, never an overflow.
func ParseSize(s string) (int64, error) {
	t := strings.ToUpper(strings.TrimSpace(s))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"GB", 1 << 30}, {"MB", 1 << 20}, {"KB", 1 << 10}, {"B", 1}} {
		if strings.HasSuffix(t, u.suffix) {
			t, mult = strings.TrimSpace(strings.TrimSuffix(t, u.suffix)), u.m
			break
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n < 1 || n > (1<<62)/mult {
		return 0, fmt.Errorf("%q is not a size like 16MB", s)
	}
	return n * mult, nil
}
