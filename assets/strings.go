package assets

// UI strings of the page, by id. Vietnamese uses the course's vocabulary
// (◀ Trước · ▶ Phát · Tiếp ▶ · ↺ Từ đầu · Bước 1/5).
var ui = map[string][2]string{ // id → {vi, en}
	"reset":        {"↺ Từ đầu", "↺ Reset"},
	"back":         {"◀ Trước", "◀ Back"},
	"play":         {"▶ Phát", "▶ Play"},
	"pause":        {"⏸ Dừng", "⏸ Pause"},
	"next":         {"Tiếp ▶", "Next ▶"},
	"step":         {"Bước %d/%d", "Step %d/%d"},
	"speed":        {"Tốc độ", "Speed"},
	"scrubber":     {"Chọn bước", "Choose a step"},
	"lesson":       {"Bài", "Lesson"},
	"sandbox":      {"(tự do: chỉ dùng console)", "(free play: console only)"},
	"version":      {"Phiên bản Redis", "Redis version"},
	"console":      {"Gõ lệnh Redis rồi Enter (↑/↓: lịch sử)", "Type a Redis command and press Enter (↑/↓: history)"},
	"consoleLabel": {"Console", "Console"},
	"outputs":      {"Kết quả đo trên engine", "Measured on the engine"},
	"commands":     {"Lệnh và trả lời", "Commands and replies"},
	"keys":         {"Khoá", "Keys"},
	"type":         {"kiểu", "type"},
	"encoding":     {"encoding", "encoding"},
	"len":          {"độ dài", "length"},
	"memory":       {"MEMORY USAGE", "MEMORY USAGE"},
	"missing":      {"(không tồn tại)", "(missing)"},
	"error":        {"Lỗi", "Error"},
	"checkFail":    {"Kiểm tra không khớp", "Check failed"},
	"loading":      {"Đang tải…", "Loading…"},
	"lang":         {"English", "Tiếng Việt"},
	"keyboard":     {"Phím: ← trước, → tiếp, Space phát/dừng", "Keys: ← back, → next, Space play/pause"},
	// The share panel and embedding (wasm/embed.go).
	"share":            {"Chia sẻ · bài của bạn", "Share · your own lesson"},
	"copyLink":         {"Sao chép liên kết tới bước này", "Copy link to this step"},
	"copyEmbed":        {"Sao chép mã nhúng", "Copy embed code"},
	"exportTranscript": {"Xuất transcript (redis-cli)", "Export transcript (redis-cli)"},
	"shareOut":         {"Nội dung để sao chép", "Text to copy"},
	"lessonText":       {"Dán hoặc thả một bài (.lesson) vào đây", "Paste or drop a lesson (.lesson) here"},
	"lessonTextHint":   {"title vi: …\nstep\nvi: …\n> SET a 1", "title en: …\nstep\nen: …\n> SET a 1"},
	"loadText":         {"Mở bài này", "Open this lesson"},
	"copied":           {"Đã sao chép.", "Copied."},
	"copyManually":     {"Chọn nội dung bên trên rồi sao chép (Ctrl+C).", "Select the text above and copy it (Ctrl+C)."},
	"exported":         {"Đã xuất: mỗi dòng một lệnh, chạy lại bằng redis-cli < tệp.", "Exported: one command a line; replay it with redis-cli < file."},
	"loaded":           {"Đã mở bài.", "Lesson opened."},
	"originDenied":     {"Trang nhúng %s không được phép điều khiển bài này (xem tham số origins).", "The embedding page %s may not drive this lesson (see the origins parameter)."},
	"needs": {"Bài này cần Redis %[1]s trở lên, đang chọn Redis %[2]s: các lệnh mới sẽ trả lỗi. Chọn Redis %[1]s trong danh sách phiên bản.",
		"This lesson needs Redis %[1]s or later; Redis %[2]s is selected, so its newer commands answer with errors. Choose Redis %[1]s in the version list."},
}

// T returns UI string id in lang ("vi" or "en"); the id itself when unknown.
func T(lang, id string) string {
	s, ok := ui[id]
	if !ok {
		return id
	}
	if lang == "en" {
		return s[1]
	}
	return s[0]
}

// UIIDs lists the string ids (for tests and the page).
func UIIDs() []string {
	out := make([]string, 0, len(ui))
	for k := range ui {
		out = append(out, k)
	}
	return out
}
