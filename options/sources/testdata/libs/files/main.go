// Package files reads options from configuration files decoded into structs.
package files

import (
	"encoding/json"
	"os"
	"time"

	"github.com/BurntSushi/toml"
	"gopkg.in/yaml.v3"
)

type Server struct {
	Port    int           `json:"port" yaml:"port"`
	Timeout time.Duration `json:"timeout"`
}

type Config struct {
	Mode   string `json:"mode" yaml:"mode" toml:"mode"`
	Server Server `json:"server"`
	Skip   bool   `json:"-"`
}

type Small struct {
	Cache bool
	Depth int `toml:"max_depth"`
}

// Tree is recursive: its keys go on without end (child.child.…), and only its own fields are
// options (the finder ran out of memory descending into it before).
type Tree struct {
	Label string `json:"label"`
	Child *Tree  `json:"child"`
}

func Load(b []byte) (Config, Small, Small, Tree) {
	var c Config
	_ = json.NewDecoder(os.Stdin).Decode(&c)
	var y Small
	_ = yaml.Unmarshal(b, &y)
	var t Small
	_, _ = toml.Decode(string(b), &t)
	var tr Tree
	_ = json.Unmarshal(b, &tr)
	return c, y, t, tr
}
