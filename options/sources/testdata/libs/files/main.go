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

func Load(b []byte) (Config, Small, Small) {
	var c Config
	_ = json.NewDecoder(os.Stdin).Decode(&c)
	var y Small
	_ = yaml.Unmarshal(b, &y)
	var t Small
	_, _ = toml.Decode(string(b), &t)
	return c, y, t
}
