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
