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
	"otherLessons": {"Khác", "Other"},
	"version":      {"Phiên bản Redis", "Redis version"},
	"console":      {"Gõ lệnh Redis rồi Enter (↑/↓: lịch sử)", "Type a Redis command and press Enter (↑/↓: history)"},
	"consoleLabel": {"Console", "Console"},
	"clients":      {"Máy khách của console", "The console's clients"},
	"client":       {"máy khách %d", "client %d"},
	"clientWait":   {"máy khách %d · ◷ đang chờ %s", "client %d · ◷ blocked: %s"},
	"clientTag":    {"[máy khách %d] ", "[client %d] "},
	"blockedLine":  {"◷ đang chờ %s", "◷ blocked: %s"},
	"clientNode":   {"máy khách → %s", "client → %s"},
	"wokenLine":    {"↳ trả lời cho %s:", "↳ reply to %s:"},
	"clock":        {"◷ +1 giây", "◷ +1 s"},
	"clockTitle":   {"Đồng hồ logic tiến 1 giây: máy khách hết thời gian chờ sẽ nhận nil", "Move the logical clock 1 second (or type advance 5s): clients whose timeout passed get nil"},
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
	// Page texts added for the page's own messages (wasm/app.go).
	"about": {"redscope cho thấy Redis từ bên trong: bước qua một bài hoặc gõ lệnh, xem dữ liệu được lưu ra sao, đo trên một engine trả lời giống redis-server thật.",
		"redscope shows Redis from the inside: step through a lesson or type commands and see how the data is stored, measured on an engine that answers like a real redis-server."},
	"freePlay":        {"tự do", "free play"},
	"noLesson":        {"không có bài “%s”; đã mở bài “%s”", "no lesson “%s”; opened “%s” instead"},
	"panic":           {"lỗi nội bộ ở %s, đã bắt lại, trang vẫn chạy: %v", "internal error in %s, caught; the page keeps working: %v"},
	"stepBeyond":      {"step=%d: bài chỉ có %d bước; đã mở bước cuối", "step=%d: the lesson has %d steps; opened the last one"},
	"badLessonText":   {"bài không đọc được: %s", "the lesson does not load: %s"},
	"refused":         {"Ứng dụng không chạy lệnh này: %s (giới hạn %s). Trang vẫn chạy; thử một lệnh nhỏ hơn.", "The app did not run this command: %s (limit %s). The page keeps working; try a smaller command."},
	"transcriptMore":  {"%s lệnh trước đó không hiện ở đây (vẫn được giữ: Xuất transcript để xem hết)", "%s earlier commands are not shown here (they are kept: Export transcript to see them all)"},
	"transcriptMore1": {"1 lệnh trước đó không hiện ở đây (vẫn được giữ)", "1 earlier command is not shown here (it is kept)"},
	"checkTyped": {"✗ Lệnh bạn gõ %s đã đổi %s; bài học mong đợi %s, nhận được %s. Bấm ↺ Từ đầu để chạy lại bài không có các lệnh đã gõ.",
		"✗ Your command %s changed %s; the lesson expected %s, got %s. Press ↺ Reset to run the lesson without the typed commands."},
	"checkTypedAny": {"✗ Bài học mong đợi %s, nhận được %s; các lệnh bạn gõ trước bước này (%d) có thể đã đổi dữ liệu. Bấm ↺ Từ đầu để chạy lại bài không có chúng.",
		"✗ The lesson expected %s, got %s; the commands you typed before this step (%d) may have changed the data. Press ↺ Reset to run the lesson without them."},
	"checkPlain":    {"✗ Kiểm tra không khớp: bài học mong đợi %s, nhận được %s", "✗ Check failed: the lesson expected %s, got %s"},
	"wantReply":     {"trả lời %s", "the reply %s"},
	"wantEncoding":  {"OBJECT ENCODING %s là %s", "OBJECT ENCODING %s to be %s"},
	"wantLen":       {"độ dài %s là %s", "the length of %s to be %s"},
	"wantType":      {"TYPE %s là %s", "TYPE %s to be %s"},
	"modelled":      {"≈ mô hình, chưa đối chiếu với server thật", "≈ modelled, not yet checked against a real server"},
	"bytesUnit":     {"%s byte", "%s bytes"},
	"bytesUnit1":    {"1 byte", "1 byte"},
	"canvas":        {"Hình minh hoạ dữ liệu trong Redis", "Picture of the data inside Redis"},
	"sceneGeneric":  {"Hình minh hoạ %s, %s. Các khoá: %s.", "Picture of %s, %s. Keys: %s."},
	"sceneNoKeys":   {"Hình minh hoạ %s, %s; chưa có khoá nào.", "Picture of %s, %s; no keys yet."},
	"liveReply":     {"%s → %s", "%s → %s"},
	"lessonPending": {"Nhấn Enter để mở bài này.", "Press Enter to open this lesson."},
	"embedTitle":    {"Nhúng vào trang của bạn", "Embed in your page"},
	"embedStep":     {"Bước mở đầu", "Opening step"},
	"embedTheme":    {"Màu", "Theme"},
	"embedControls": {"Nút điều khiển", "Controls"},
	"embedHeight":   {"Chiều cao (px)", "Height (px)"},
	"embedPreview":  {"Xem trước", "Preview"},
	"embedFormat":   {"Cách viết một bài (.lesson)", "How to write a lesson (.lesson)"},
	"themeDark":     {"tối", "dark"},
	"themeLight":    {"sáng", "light"},
	"themeAuto":     {"theo máy", "as the reader's device"},
	"ctlFull":       {"đầy đủ", "full"},
	"ctlMinimal":    {"tối giản", "minimal"},
	"previewTitle":  {"Xem trước mã nhúng", "Preview of the embed code"},
	"dropTooBig":    {"%s: tệp %d byte; ứng dụng nhận bài tới %d byte (giới hạn LessonBytes)", "%s: the file is %d bytes; the app accepts lessons up to %d bytes (limit LessonBytes)"},
	"dropUnread":    {"%s: không đọc được tệp", "%s: cannot read the file"},
	"steps":         {"Các bước", "Steps"},
	"needs": {"Bài này cần Redis %[1]s trở lên, đang chọn Redis %[2]s: các lệnh mới sẽ trả lỗi. Chọn Redis %[1]s trong danh sách phiên bản.",
		"This lesson needs Redis %[1]s or later; Redis %[2]s is selected, so its newer commands answer with errors. Choose Redis %[1]s in the version list."},
}

// limitText explains each of the app's limits (lesson/limits.go) in Vietnamese for the page; the
// English page shows the limit's own detailed message.
var limitText = map[string]string{
	"LineBytes":    "dòng lệnh quá dài",
	"ArgBytes":     "các đối số của lệnh quá lớn",
	"StepElements": "quá nhiều đối số trong một bước (chia việc ra nhiều bước)",
	"LCSCells":     "LCS của hai chuỗi này cần một bảng quá lớn",
	"StringBytes":  "chuỗi quá dài để sao chép hoặc lưu trong ứng dụng (các byte 0 chưa ghi thì không được lưu: SETBIT k 4294967295 1 vẫn chạy)",
	"ReplyItems":   "câu trả lời có quá nhiều phần tử",
	"Memory":       "dữ liệu sẽ vượt bộ nhớ ứng dụng cho phép (xoá bớt bằng DEL hoặc FLUSHALL, hoặc ◀ Trước)",
	"KeyBytes":     "tên các khoá của lệnh quá dài",
	"LessonBytes":  "bài quá lớn",
	"LessonSteps":  "bài có quá nhiều bước",
	"StepCommands": "một bước có quá nhiều lệnh",
}

// Limit is the page's explanation of a refused command in lang: the limit's Vietnamese
// explanation, or the limit's own English message (detail).
func Limit(lang, limit, detail string) string {
	if lang != "en" {
		if s, ok := limitText[limit]; ok {
			return s
		}
	}
	return detail
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
