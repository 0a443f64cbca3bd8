// Package sources: user-declared sources, --source and --source-field.
package sources

type Config struct {
	Compress bool
	Workers  int
}

type Settings struct {
	Fast, Safe bool
}

func LoadConfig() Config { return Config{Workers: 4} }

func Threads() int { return 2 }

func Main(s *Settings) {
	c := LoadConfig()
	if c.Compress { // want {LoadConfig}
		sink()
	}
	if Threads() > 1 { // want {threads}
		sink()
	}
	if s.Fast { // want {fast}
		sink()
	}
	if s.Safe { // want {}
		sink()
	}
}

func sink() {}
