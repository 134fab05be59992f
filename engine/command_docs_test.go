package engine

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"sort"
	"strings"
	"testing"
)

// TestCommandDocs: every command and subcommand of the table has a doc with a syntax line that
// starts with its name and a summary in both languages, a since-version and a group.
func TestCommandDocs(t *testing.T) {
	n := 0
	check := func(c *Command) {
		n++
		name := c.FullName()
		d, ok := commandDocs()[name]
		if !ok {
			t.Errorf("%s: no doc", name)
			return
		}
		up := strings.ToUpper(strings.ReplaceAll(name, "|", " "))
		if d.Syntax != up && !strings.HasPrefix(d.Syntax, up+" ") {
			t.Errorf("%s: syntax %q", name, d.Syntax)
		}
		if d.En == "" || d.Vi == "" || d.En == d.Vi {
			t.Errorf("%s: summaries %q / %q", name, d.En, d.Vi)
		}
		h, ok := LookupHelp(name, "vi")
		if !ok || !h.Simulated || h.Since == "" || h.Group == "" || h.Summary != d.Vi {
			t.Errorf("%s: help %+v", name, h)
		}
	}
	for _, c := range commandTable {
		check(c)
		for _, s := range c.Sub {
			check(s)
		}
	}
	if n < 200 {
		t.Fatalf("only %d commands", n)
	}
	// No doc for a command that is not in the table.
	for name := range commandDocs() {
		if tableCommand(name) == nil {
			t.Errorf("doc for %s, which the table lacks", name)
		}
	}
}

// TestCommandDocsFile: command_docs.tsv parses without a bad line, its names are sorted, and
// the table it gives is the one the Go maps held before the move to the data file: 321 entries
// whose fields hash (FNV-64a over name, group, since, syntax, en, vi, each ended by a NUL, in
// name order) to the digest taken from those maps. An entry lost, added or changed fails here;
// after a deliberate edit of the file, set the new count and digest.
func TestCommandDocsFile(t *testing.T) {
	docs, bad := loadDocs(commandDocsTSV)
	if len(bad) > 0 {
		t.Fatalf("command_docs.tsv: bad lines %v", bad)
	}
	var names []string
	for _, line := range strings.Split(commandDocsTSV, "\n") {
		if line != "" && line[0] != '#' {
			name, _, _ := strings.Cut(line, "\t")
			names = append(names, name)
		}
	}
	if !sort.StringsAreSorted(names) {
		t.Error("command_docs.tsv: lines not sorted by name")
	}
	h := fnv.New64a()
	for _, n := range names {
		d := docs[n]
		fmt.Fprintf(h, "%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00", n, d.Group, d.Since, d.Syntax, d.En, d.Vi)
	}
	if len(docs) != 321 || len(names) != 321 {
		t.Errorf("%d entries (%d lines), want 321", len(docs), len(names))
	}
	if got := h.Sum64(); got != 0x2980f6bf4bf21012 {
		t.Errorf("digest %016x, want 2980f6bf4bf21012", got)
	}
	// The rarer fields and characters come through: a group and since of its own, quotes.
	want := map[string]Doc{
		"xackdel": {Syntax: "XACKDEL key group [KEEPREF|DELREF|ACKED] IDS numids id [id ...]", En: "Acknowledges entries and deletes them from the stream in one step.", Vi: "Xác nhận các entry rồi xoá chúng khỏi stream trong một bước.", Group: "stream", Since: "8.2.0"},
		"bf.card": {Syntax: "BF.CARD key", En: "Tells how many items were added to a Bloom filter.", Vi: "Cho biết đã thêm bao nhiêu phần tử vào bộ lọc Bloom.", Group: "bf", Since: "RedisBloom"},
		"migrate": {Syntax: `MIGRATE host port key|"" destination-db timeout [COPY] [REPLACE] [AUTH password | AUTH2 username password] [KEYS key [key ...]]`, En: "Moves keys to another server (another cluster node) atomically: written there, deleted here.", Vi: "Chuyển khoá sang server khác (node khác của cluster) một cách nguyên tử: ghi bên kia, xoá bên này."},
		"get":     {Syntax: "GET key", En: "Reads a string value.", Vi: "Đọc giá trị chuỗi."},
	}
	for n, w := range want {
		if d := commandDocs()[n]; d != w {
			t.Errorf("%s: %+v, want %+v", n, d, w)
		}
	}
}

// TestLoadDocsBad: a line with too few or too many fields, an empty name or a repeated name is
// left out and reported; comments, blank lines and a CRLF ending are not errors.
func TestLoadDocsBad(t *testing.T) {
	text := "# comment\n\n" +
		"a\t\t\tA\ten\tvi\r\n" +
		"b\t\t\tB\ten\n" +
		"c\t\t\tC\ten\tvi\textra\n" +
		"\t\t\tD\ten\tvi\n" +
		"a\tg\ts\tA2\ten\tvi\n" +
		"e\tg\t1.0.0\tE\ten\tvi"
	docs, bad := loadDocs(text)
	if !reflect.DeepEqual(bad, []int{4, 5, 6, 7}) {
		t.Errorf("bad %v", bad)
	}
	want := map[string]Doc{
		"a": {Syntax: "A", En: "en", Vi: "vi"},
		"e": {Group: "g", Since: "1.0.0", Syntax: "E", En: "en", Vi: "vi"},
	}
	if !reflect.DeepEqual(docs, want) {
		t.Errorf("docs %+v", docs)
	}
}

func TestLookupHelp(t *testing.T) {
	h, ok := LookupHelp("LPUSH", "en")
	if !ok || h.Syntax != "LPUSH key element [element ...]" || h.Since != "1.0.0" || h.Group != "list" || !h.Simulated {
		t.Fatalf("lpush %+v", h)
	}
	if h, ok := LookupHelp("config get", "vi"); !ok || h.Name != "config|get" || !strings.HasPrefix(h.Syntax, "CONFIG GET parameter") {
		t.Fatalf("config get %+v", h)
	}
	if h, ok := LookupHelp("geoadd", "en"); !ok || h.Simulated || h.Since != "3.2.0" || h.Group != "geo" || h.Syntax != "" {
		t.Fatalf("geoadd %+v", h)
	}
	if h, ok := LookupHelp("hgetdel", "en"); !ok || h.Profile != V80 || h.Since != "8.0.0" {
		t.Fatalf("hgetdel %+v", h)
	}
	if _, ok := LookupHelp("frobnicate", "en"); ok {
		t.Fatal("frobnicate known")
	}
	if g := CommandGroup("setbit"); g != "bitmap" {
		t.Fatalf("setbit group %q", g)
	}
	if g := CommandGroup("pfadd"); g != "hyperloglog" {
		t.Fatalf("pfadd group %q", g)
	}
}

// TestNotSimulated: a real Redis command missing from the table answers that redscope does not
// simulate it; a name newer than the profile, or unknown to Redis, keeps Redis's error; inside
// MULTI the same reply flags the transaction.
func TestNotSimulated(t *testing.T) {
	for _, c := range []struct {
		v    Version
		args []string
		want string
	}{
		{V70, []string{"GEOADD", "g", "1", "2", "m"}, "ERR redscope does not simulate 'geoadd' yet"},
		{V88, []string{"publish", "ch", "m"}, "ERR redscope does not simulate 'publish' yet"},
		{V70, []string{"SUBSCRIBE", "ch"}, "ERR redscope does not simulate 'subscribe' yet"},
		{V70, []string{"MEMORY", "STATS"}, "ERR redscope does not simulate 'memory|stats' yet"},
		// newer than the profile: Redis 7.0's own error
		{V70, []string{"HEXPIRE", "h", "1", "FIELDS", "1", "a"}, "ERR unknown command 'HEXPIRE', with args beginning with: 'h' '1' 'FIELDS' '1' 'a' "},
		{V70, []string{"DELEX", "k"}, "ERR unknown command 'DELEX', with args beginning with: 'k' "},
		{V70, []string{"CLUSTER", "MYSHARDID"}, "ERR unknown subcommand 'MYSHARDID'. Try CLUSTER HELP."},
		// never in Redis
		{V88, []string{"FROBNICATE", "x"}, "ERR unknown command 'FROBNICATE', with args beginning with: 'x' "},
		{V88, []string{"OBJECT", "NOPE"}, "ERR unknown subcommand 'NOPE'. Try OBJECT HELP."},
		// simulated: answered
		{V88, []string{"CLUSTER", "INFO"}, "ERR This instance has cluster support disabled"},
	} {
		e := New(Options{Version: c.v})
		if r := e.Do(c.args...); r.Kind != KindError || r.Str != c.want {
			t.Errorf("%v %v: %q, want %q", c.v, c.args, r.Str, c.want)
		}
	}
	e := New(Options{Version: V70})
	e.Do("MULTI")
	if r := e.Do("GEOPOS", "g", "m"); r.Str != "ERR redscope does not simulate 'geopos' yet" {
		t.Fatalf("queued %q", r.Str)
	}
	if r := e.Do("EXEC"); !strings.HasPrefix(r.Str, "EXECABORT") {
		t.Fatalf("exec %q", r.Str)
	}
}
