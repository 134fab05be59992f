package web

// The browser build's patched ebiten (see ebitenpatch/builtinshader): EbitenModFile prepares a
// copy of the ebiten module with upstream's internal/builtinshader/shader.go replaced by ours,
// and a go.mod beside it that replaces the module with that copy; `go build -modfile=<it>`
// then builds main.wasm without text/template. ./build.sh dist and the browser tests use it.
// The copy is made once per ebiten version under the user's cache directory.

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

const (
	ebitenModule = "github.com/hajimehoshi/ebiten/v2"
	// ebitenShaderSHA256 is upstream v2.8.8's internal/builtinshader/shader.go: the patch is
	// applied only over that exact file (another version builds unpatched, with a message).
	ebitenShaderSHA256 = "932a4a04d35a2bafa2272c9089f963ba5f189d855931af8fc049ead7360f6ebe"
	ebitenShaderPath   = "internal/builtinshader/shader.go"
)

// EbitenModFile returns the path of a go.mod (with its go.sum) for building the module at root
// with the patched ebiten. An error says why the patch does not apply; build unpatched then.
func EbitenModFile(root string) (string, error) {
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}|{{.Version}}", ebitenModule)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("go list -m %s: %v", ebitenModule, err)
	}
	dir, version, _ := strings.Cut(strings.TrimSpace(string(out)), "|")
	up, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(ebitenShaderPath)))
	if err != nil {
		return "", err
	}
	if sum := sha256.Sum256(up); hex.EncodeToString(sum[:]) != ebitenShaderSHA256 {
		return "", fmt.Errorf("ebiten %s's %s is not the one web/ebitenpatch replaces", version, ebitenShaderPath)
	}
	ours, err := os.ReadFile(filepath.Join(root, "web", "ebitenpatch", "builtinshader", "shader.go"))
	if err != nil {
		return "", err
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		return "", err
	}
	gosum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		return "", err
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		cache = os.TempDir()
	}
	h := sha256.New()
	h.Write(ours)
	h.Write([]byte(version))
	base := filepath.Join(cache, "redscope", "ebiten-"+version+"-"+hex.EncodeToString(h.Sum(nil)[:6]))
	mod := filepath.Join(base, "module")
	if _, err := os.Stat(filepath.Join(mod, ".complete")); err != nil {
		tmp := mod + fmt.Sprintf(".tmp%d", os.Getpid())
		os.RemoveAll(tmp)
		if err := copyModule(dir, tmp); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(tmp, filepath.FromSlash(ebitenShaderPath)), ours, 0o644); err != nil {
			return "", err
		}
		if err := os.WriteFile(filepath.Join(tmp, ".complete"), nil, 0o644); err != nil {
			return "", err
		}
		os.RemoveAll(mod)
		if err := os.Rename(tmp, mod); err != nil {
			// Another build won the race: use its copy.
			os.RemoveAll(tmp)
			if _, err := os.Stat(filepath.Join(mod, ".complete")); err != nil {
				return "", err
			}
		}
	}
	hm := sha256.Sum256(append(append([]byte{}, gomod...), gosum...))
	mdir := filepath.Join(base, "gomod-"+hex.EncodeToString(hm[:6]))
	if err := os.MkdirAll(mdir, 0o755); err != nil {
		return "", err
	}
	m := string(gomod) + "\n// Added by web/ebitenpatch.go for the browser build.\nreplace " + ebitenModule + " => " + mod + "\n"
	if err := writeIfChanged(filepath.Join(mdir, "go.mod"), []byte(m)); err != nil {
		return "", err
	}
	if err := writeIfChanged(filepath.Join(mdir, "go.sum"), gosum); err != nil {
		return "", err
	}
	return filepath.Join(mdir, "go.mod"), nil
}

// copyModule copies a module's Go sources and embedded files (tests and examples left out).
func copyModule(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			if rel == "examples" {
				return filepath.SkipDir
			}
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		if strings.HasSuffix(p, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	})
}

func writeIfChanged(p string, b []byte) error {
	if old, err := os.ReadFile(p); err == nil && string(old) == string(b) {
		return nil
	}
	tmp := p + fmt.Sprintf(".tmp%d", os.Getpid())
	if err := os.WriteFile(tmp, b, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, p)
}
