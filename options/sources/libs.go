package sources

import (
	"go/constant"
	"go/types"
	"reflect"
	"strings"
)

// The configuration libraries Go programs use, recognised by import path. Each gives its options
// names as the library does, and says how a run sets them.

// cliGetters are the methods of urfave/cli's Context that read a flag's value.
var cliGetters = map[string]bool{
	"Bool": true, "String": true, "Int": true, "Int64": true, "Uint": true, "Uint64": true, "Float64": true,
	"Duration": true, "Path": true, "Timestamp": true, "Generic": true, "StringSlice": true, "IntSlice": true,
	"Int64Slice": true, "Float64Slice": true, "Uint64Slice": true, "UintSlice": true,
}

const (
	pflagPath   = "github.com/spf13/pflag"
	cliPath     = "github.com/urfave/cli/v2"
	viperPath   = "github.com/spf13/viper"
	envconfPath = "github.com/kelseyhightower/envconfig"
)

// isCaarlosEnv matches github.com/caarlos0/env and its major versions (/v6 … /v11).
func isCaarlosEnv(path string) bool {
	rest, ok := strings.CutPrefix(path, "github.com/caarlos0/env")
	return ok && (rest == "" || strings.HasPrefix(rest, "/v"))
}

// decoders are the functions that decode a configuration file into a struct: the argument that
// receives it, and the struct tag that names keys.
var decoders = map[string]struct {
	arg int
	tag string
}{
	"encoding/json.Unmarshal":                   {1, "json"},
	"encoding/json.Decoder.Decode":              {0, "json"},
	"gopkg.in/yaml.v3.Unmarshal":                {1, "yaml"},
	"gopkg.in/yaml.v2.Unmarshal":                {1, "yaml"},
	"go.yaml.in/yaml/v3.Unmarshal":              {1, "yaml"},
	"gopkg.in/yaml.v3.Decoder.Decode":           {0, "yaml"},
	"sigs.k8s.io/yaml.Unmarshal":                {1, "json"},
	"github.com/BurntSushi/toml.Decode":         {1, "toml"},
	"github.com/BurntSushi/toml.DecodeFile":     {1, "toml"},
	"github.com/BurntSushi/toml.Unmarshal":      {1, "toml"},
	"github.com/pelletier/go-toml/v2.Unmarshal": {1, "toml"},
}

// libCall recognises a call of a configuration library; it reports whether it did.
func (s *Set) libCall(ref callRef, fn *types.Func, path, recv string) bool {
	call, info := ref.call, ref.info
	site := Site{Pos: call.Lparen, Position: ref.fset.Position(call.Lparen), Callee: calleeName(fn, recv), Method: recv != ""}
	sig := fn.Type().(*types.Signature)
	constArg := func(i int) (string, bool) {
		if i >= len(call.Args) {
			return "", false
		}
		tv := info.Types[call.Args[i]]
		if tv.Value == nil || tv.Value.Kind() != constant.String {
			return "", false
		}
		return constant.StringVal(tv.Value), true
	}
	switch {
	case path == pflagPath && (recv == "" || recv == "FlagSet"):
		// pflag (and cobra's cmd.Flags(), a *pflag.FlagSet): the flag package's functions, with P
		// variants that take a shorthand after the name. Flags are set as --name=value.
		base, short := strings.CutSuffix(fn.Name(), "P")
		ff, ok := flagFuncs[base]
		if !ok {
			return false
		}
		n, ok := constArg(map[SiteKind]int{ArgPointer: 1}[ff.kind])
		if !ok {
			return false
		}
		site.Kind, site.Set = ff.kind, Setter{Flag: "--" + n}
		if ff.kind == FuncParam {
			site.Arg = 2
			if short {
				site.Arg = 3
			}
		}
		s.add(n, ff.typ, site)
	case path == cliPath && recv == "Context":
		// urfave/cli v2: values are read by name from the command's context.
		n, ok := constArg(0)
		if !ok || !cliGetters[fn.Name()] {
			return false
		}
		site.Kind, site.Set = Result, Setter{Flag: "--" + n}
		s.add(n, types.TypeString(sig.Results().At(0).Type(), qualifier), site)
	case path == viperPath && (recv == "" || recv == "Viper"):
		switch name := fn.Name(); {
		case name == "AutomaticEnv":
			s.viper.automaticEnv = true
		case name == "SetEnvPrefix":
			s.viper.prefix, _ = constArg(0)
		case name == "SetEnvKeyReplacer":
			s.viper.replacer = true
		case strings.HasPrefix(name, "Get") && sig.Results().Len() == 1:
			n, ok := constArg(0)
			if !ok {
				return false
			}
			site.Kind = Result
			o := s.add(n, types.TypeString(sig.Results().At(0).Type(), qualifier), site)
			s.viper.sites = append(s.viper.sites, viperSite{o, len(o.Sites) - 1})
		default:
			return false
		}
	case isCaarlosEnv(path) && (fn.Name() == "Parse" || fn.Name() == "ParseWithOptions") && len(call.Args) > 0:
		s.structFields(ref, info.Types[call.Args[0]].Type, "", site, func(f *types.Var, tag reflect.StructTag, prefix string) (string, Setter, string, bool) {
			if p, ok := tag.Lookup("envPrefix"); ok {
				return "", Setter{}, prefix + p, false
			}
			name, _, _ := strings.Cut(tag.Get("env"), ",")
			if name == "" {
				return "", Setter{}, prefix, false
			}
			return prefix + name, Setter{Env: prefix + name}, prefix, true
		})
	case path == envconfPath && (fn.Name() == "Process" || fn.Name() == "MustProcess") && len(call.Args) > 1:
		p, _ := constArg(0)
		if p != "" {
			p = strings.ToUpper(p) + "_"
		}
		s.structFields(ref, info.Types[call.Args[1]].Type, p, site, func(f *types.Var, tag reflect.StructTag, prefix string) (string, Setter, string, bool) {
			key := f.Name()
			if k := tag.Get("envconfig"); k != "" {
				key = k
			}
			if isStruct(f.Type()) {
				return "", Setter{}, prefix + strings.ToUpper(key) + "_", false
			}
			env := prefix + strings.ToUpper(key)
			return env, Setter{Env: env}, prefix, true
		})
	default:
		d, ok := decoders[path+"."+strings.TrimPrefix(recv+".", ".")+fn.Name()]
		if !ok || d.arg >= len(call.Args) {
			return false
		}
		s.structFields(ref, info.Types[call.Args[d.arg]].Type, "", site, func(f *types.Var, tag reflect.StructTag, prefix string) (string, Setter, string, bool) {
			key, _, _ := strings.Cut(tag.Get(d.tag), ",")
			switch {
			case key == "-":
				return "", Setter{}, prefix, false
			case key == "" && d.tag == "yaml":
				key = strings.ToLower(f.Name()) // yaml's default key
			case key == "":
				key = f.Name()
			}
			if isStruct(f.Type()) {
				return "", Setter{}, prefix + key + ".", false
			}
			return prefix + key, Setter{Key: prefix + key}, prefix, true
		})
	}
	return true
}

// fieldRule decides, for one field of a decoded struct, the option it is (name, setter, ok) or,
// for a nested struct, the prefix its own fields take.
type fieldRule func(f *types.Var, tag reflect.StructTag, prefix string) (name string, set Setter, nested string, ok bool)

// structFields makes every exported field of the struct t points to an option (field reads are
// the option's value), as rule names them, descending into nested structs.
func (s *Set) structFields(ref callRef, t types.Type, prefix string, call Site, rule fieldRule) {
	s.structFieldsOn(ref, t, prefix, call, rule, map[*types.Struct]bool{})
}

// structFieldsOn is structFields below the structs on the path from the decoded one (onPath). A
// struct reached again through its own fields (type Node struct{ Next *Node }) is not descended
// into: its keys would go on without end (next.next.…), and its fields, the same variables as
// the outer ones, are options already.
func (s *Set) structFieldsOn(ref callRef, t types.Type, prefix string, call Site, rule fieldRule, onPath map[*types.Struct]bool) {
	st, ok := structUnder(t)
	if !ok || onPath[st] {
		return
	}
	onPath[st] = true
	defer delete(onPath, st)
	for i := 0; i < st.NumFields(); i++ {
		f := st.Field(i)
		if !f.Exported() {
			continue
		}
		name, set, nested, ok := rule(f, reflect.StructTag(st.Tag(i)), prefix)
		if ok {
			site := Site{Kind: FieldRead, Pos: f.Pos(), Position: ref.fset.Position(f.Pos()), Field: f,
				Callee: call.Callee, Via: call.Position, Set: set}
			s.add(name, types.TypeString(f.Type(), qualifier), site)
			continue
		}
		if isStruct(f.Type()) {
			s.structFieldsOn(ref, f.Type(), nested, call, rule, onPath)
		}
	}
}

func structUnder(t types.Type) (*types.Struct, bool) {
	if t == nil {
		return nil, false
	}
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	st, ok := t.Underlying().(*types.Struct)
	return st, ok
}

// isStruct reports whether t (or what it points to) is a struct whose fields are keys of their
// own: not one of the standard library's values such as time.Time.
func isStruct(t types.Type) bool {
	if p, ok := t.Underlying().(*types.Pointer); ok {
		t = p.Elem()
	}
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil && !strings.Contains(strings.Split(n.Obj().Pkg().Path(), "/")[0], ".") {
		return false
	}
	_, ok := structUnder(t)
	return ok
}

// viperState is what the program tells viper about its environment.
type viperState struct {
	automaticEnv, replacer bool
	prefix                 string
	sites                  []viperSite
}

type viperSite struct {
	opt  *Option
	site int
}

// setViper says how runs set viper keys: with AutomaticEnv, the environment variable viper reads
// (prefix_KEY, dots as underscores when the program sets a key replacer); otherwise the key of
// its configuration file.
func (s *Set) setViper() {
	for _, vs := range s.viper.sites {
		key := vs.opt.Name
		set := Setter{Key: key}
		if s.viper.automaticEnv {
			env := key
			if s.viper.replacer {
				env = strings.NewReplacer(".", "_", "-", "_").Replace(env)
			}
			if s.viper.prefix != "" {
				env = s.viper.prefix + "_" + env
			}
			set = Setter{Env: strings.ToUpper(env)}
		}
		vs.opt.Sites[vs.site].Set = set
	}
}
