package lesson

import (
	"fmt"
	"sort"
	"strings"

	"redscope/engine"
)

// The console's HELP, answered on the page as redis-cli answers its client-side `help` — from
// the engine's command table (engine.LookupHelp), never sent to the engine (Redis has no HELP
// command). In the Config's language:
//
//	HELP                 how to use it, and the groups
//	HELP @list           the commands of a group, simulated or not
//	HELP LPUSH           syntax, summary, since-version, group ("CONFIG GET" for a subcommand)
//
// A real Redis command the engine does not simulate says so; a command newer than the profile
// says which Redis introduced it; a name Redis never had says that.

// IsHelpLine reports whether a console line is a HELP request.
func IsHelpLine(line string) bool {
	w, _, _ := strings.Cut(strings.TrimSpace(line), " ")
	return strings.EqualFold(w, "help")
}

func (p *Player) execHelp(line string) Exchange {
	arg := strings.TrimSpace(strings.TrimSpace(line)[4:])
	return Exchange{Exchange: engine.Exchange{Cmd: strings.TrimSpace(line), Console: true, Reply: Help(p.eng.Version(), p.cfg.Lang, arg)}}
}

func tr(lang, en, vi string, a ...any) string {
	if lang == "en" {
		return fmt.Sprintf(en, a...)
	}
	return fmt.Sprintf(vi, a...)
}

// Help is HELP's answer for arg ("" for the overview, "@group", or a command name) on profile v.
func Help(v engine.Version, lang, arg string) string {
	switch {
	case arg == "":
		return helpOverview(v, lang)
	case strings.HasPrefix(arg, "@"):
		return helpGroup(v, lang, strings.ToLower(arg[1:]))
	}
	h, ok := engine.LookupHelp(arg, lang)
	if !ok {
		// "HELP CONFIG GET" falls back to "CONFIG" when the pair is unknown.
		if f := strings.Fields(arg); len(f) > 1 {
			if h2, ok2 := engine.LookupHelp(f[0], lang); ok2 {
				h, ok = h2, true
			}
		}
	}
	if !ok {
		return tr(lang, "No such Redis command: %s. Type HELP for the groups.", "Redis không có lệnh %s. Gõ HELP để xem các nhóm.", arg)
	}
	up := strings.ToUpper(strings.ReplaceAll(h.Name, "|", " "))
	var b strings.Builder
	switch {
	case !h.Simulated && !v.Has(sinceVersion(h.Since)):
		fmt.Fprintf(&b, "  %s\n  %s", up, tr(lang, "Redis %s has no %s: it came in Redis %s (choose a newer version).",
			"Redis %s chưa có %s: lệnh này có từ Redis %s (hãy chọn phiên bản mới hơn).", v, up, h.Since))
	case !h.Simulated:
		fmt.Fprintf(&b, "  %s\n  %s", up, tr(lang, "redscope does not simulate this Redis command yet.", "redscope chưa mô phỏng lệnh Redis này."))
	default:
		syntax := h.Syntax
		if syntax == "" {
			syntax = up // a command added to the table without its doc yet
		}
		fmt.Fprintf(&b, "  %s", syntax)
		if h.Summary != "" {
			fmt.Fprintf(&b, "\n  %s: %s", tr(lang, "summary", "tóm tắt"), h.Summary)
		}
		if !v.Has(h.Profile) {
			fmt.Fprintf(&b, "\n  %s", tr(lang, "(not in Redis %s: choose Redis %s or newer)", "(Redis %s chưa có: hãy chọn Redis %s trở lên)", v, h.Profile))
		}
	}
	if h.Since != "" {
		fmt.Fprintf(&b, "\n  %s: %s", tr(lang, "since", "từ phiên bản"), h.Since)
	}
	if h.Group != "" {
		fmt.Fprintf(&b, "\n  %s: %s", tr(lang, "group", "nhóm"), h.Group)
	}
	return b.String()
}

// sinceVersion is "5.0.0" as a Version ("" or a module name: always present).
func sinceVersion(s string) engine.Version {
	var maj, mn int
	if _, err := fmt.Sscanf(s, "%d.%d", &maj, &mn); err != nil {
		return 0
	}
	return engine.Version(maj*100 + mn)
}

// groups counts, per group, the commands the table simulates and the real ones it does not.
func groups(lang string) (names []string, sim, not map[string]int) {
	sim, not = map[string]int{}, map[string]int{}
	for _, n := range engine.HelpNames() {
		if strings.Contains(n, "|") {
			continue
		}
		h, ok := engine.LookupHelp(n, lang)
		if !ok || h.Group == "" {
			continue
		}
		if h.Simulated {
			sim[h.Group]++
		} else {
			not[h.Group]++
		}
	}
	for g := range sim {
		names = append(names, g)
	}
	for g := range not {
		if sim[g] == 0 {
			names = append(names, g)
		}
	}
	sort.Strings(names)
	return names, sim, not
}

func helpOverview(v engine.Version, lang string) string {
	var b strings.Builder
	b.WriteString(tr(lang, "redscope simulates Redis %s. Type:\n", "redscope mô phỏng Redis %s. Gõ:\n", v))
	b.WriteString(tr(lang, "  HELP <command>   syntax, summary, since-version and group (e.g. HELP LPUSH)\n",
		"  HELP <lệnh>      cú pháp, tóm tắt, phiên bản và nhóm (ví dụ HELP LPUSH)\n"))
	b.WriteString(tr(lang, "  HELP @<group>    the commands of a group (e.g. HELP @list)\n",
		"  HELP @<nhóm>     các lệnh của một nhóm (ví dụ HELP @list)\n"))
	b.WriteString(tr(lang, "Lines of redscope's own (not Redis commands, as redis-cli does around a server):\n",
		"Dòng riêng của redscope (không phải lệnh Redis; như redis-cli làm quanh server):\n"))
	b.WriteString(tr(lang, "  cluster create 3 [empty 1]   a cluster on 127.0.0.1:7000…; cluster node 7001; cluster follow on (redis-cli -c); cluster reshard 0-99 7003\n",
		"  cluster create 3 [empty 1]   một cluster ở 127.0.0.1:7000…; cluster node 7001; cluster follow on (redis-cli -c); cluster reshard 0-99 7003\n"))
	b.WriteString(tr(lang, "  ring nodes a,b,c · ring add d  the consistent-hash ring\n", "  ring nodes a,b,c · ring add d  vòng băm nhất quán\n"))
	b.WriteString(tr(lang, "Groups (commands simulated / not yet):", "Các nhóm (số lệnh đã mô phỏng / chưa):"))
	names, sim, not := groups(lang)
	for _, g := range names {
		fmt.Fprintf(&b, "\n  @%-12s %d / %d", g, sim[g], not[g])
	}
	return b.String()
}

func helpGroup(v engine.Version, lang, group string) string {
	var rows []string
	for _, n := range engine.HelpNames() {
		h, ok := engine.LookupHelp(n, lang)
		if !ok || h.Group != group {
			continue
		}
		up := strings.ToUpper(strings.ReplaceAll(n, "|", " "))
		switch {
		case !h.Simulated && !v.Has(sinceVersion(h.Since)):
			rows = append(rows, fmt.Sprintf("  %-22s %s", up, tr(lang, "(Redis %s)", "(Redis %s)", h.Since)))
		case !h.Simulated:
			rows = append(rows, fmt.Sprintf("  %-22s %s", up, tr(lang, "(not simulated yet)", "(chưa mô phỏng)")))
		case !v.Has(h.Profile):
			rows = append(rows, fmt.Sprintf("  %-22s %s (Redis %s)", up, h.Summary, h.Profile))
		default:
			rows = append(rows, fmt.Sprintf("  %-22s %s", up, h.Summary))
		}
	}
	if len(rows) == 0 {
		return tr(lang, "No group @%s. Type HELP for the groups.", "Không có nhóm @%s. Gõ HELP để xem các nhóm.", group)
	}
	return "@" + group + "\n" + strings.Join(rows, "\n")
}

// blockedEn is the engine's answer to a command typed into a console client that is blocked
// (engine/multi.go, errClientBlocked), as the console prints it.
const blockedEn = "(error) ERR redscope: this client is blocked; its commands wait until it is served"

// LocalReply is a reply as the console shows it in lang: the engine's "not simulated yet" error
// says so in Vietnamese too; every other reply is Redis's own text.
func LocalReply(reply, lang string) string {
	if lang == "en" {
		return reply
	}
	if reply == blockedEn {
		return "(error) ERR redscope: máy khách này đang bị chặn; lệnh của nó phải chờ đến khi nó được phục vụ"
	}
	rest, ok := strings.CutPrefix(reply, "(error) "+engine.NotSimulatedPrefix)
	if !ok {
		return reply
	}
	name, _, _ := strings.Cut(rest, "'")
	h, _ := engine.LookupHelp(name, "vi")
	up := strings.ToUpper(strings.ReplaceAll(name, "|", " "))
	s := "(error) ERR redscope chưa mô phỏng lệnh " + up
	if h.Since != "" {
		s += " (Redis có từ " + h.Since
		if h.Group != "" {
			s += ", nhóm " + h.Group
		}
		s += ")"
	}
	return s
}
