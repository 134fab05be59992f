package lesson

import (
	"fmt"
	"sort"
	"strings"
)

// The course map: which article and section of the course a lesson follows.
//
// The course is four articles, named by their number prefix: 000 (strings, bitmaps, bitfields,
// HyperLogLog), 001 (hashes and sets), 003 (six use cases of one shop) and 004 (Bloom filters,
// HyperLogLog, consistent hashing). A lesson names what it follows with header lines
//
//	course 000 3.1        article 000, section 3.1 (SDS)
//	course 003 uc5        article 003, use case 5 (check-ins by day)
//	course 004 ex1        article 004, its first worked example (a Bloom filter's size)
//
// one line per section the lesson serves; the first one places it in the app's lesson list.
// Section ids are the numbers 000 and 001 print (1 … 10, 3.1 … 3.7, 5.1, 5.2, 6.1); 003 numbers
// its six use cases 1 … 6, written uc1 … uc6; 004 numbers nothing, so its seven concept parts
// ("Khái niệm") are c1 … c7 and its four worked examples ("Ví dụ thực tế") ex1 … ex4, in the
// article's order. Course below is the one table of them (docs/course.md maps each section to
// its lessons and labs; lesson.TestCourseDocs keeps the two in step).

// CourseRef is one `course ARTICLE SECTION` line.
type CourseRef struct {
	Article string `json:"article"` // "000"
	Section string `json:"section"` // "3.1", "uc5", "ex1"
}

func (r CourseRef) String() string { return r.Article + " " + r.Section }

// Article is one course article.
type Article struct {
	ID       string // the article's number prefix, "000"
	Title    Text   // as the course names it (vi), and in English
	Short    Text   // a short name, for the app's lesson list ("article — section")
	Sections []Section
}

// Section is one section of an article, in the article's order.
type Section struct {
	ID    string // "3.1", "uc5", "c2", "ex1"
	Title Text   // with the article's numbering: "3.1 SDS: …", "Use case 5: …"
	// App marks a section about the application around Redis (Laravel's facades, a service's
	// read path): the page does not simulate it (docs/course.md says what it covers).
	App bool
	// Lessons are the lessons that follow the section, in the course's order: built-in ones and
	// ones not written yet (docs/course.md marks those). The app lists a built-in lesson under
	// the section of its first course line, in this order; one the list does not name comes
	// after them, by name.
	Lessons []string
}

// Course is the course's articles and sections, in the course's order.
var Course = []Article{
	{ID: "000", Title: Text{VI: "String, Bitmap, Bitfield, HyperLogLog", EN: "Strings, bitmaps, bitfields, HyperLogLog"}, Short: Text{VI: "String, Bitmap, HLL", EN: "Strings, bitmaps, HLL"}, Sections: []Section{
		{ID: "1", Title: Text{VI: "1. Bài toán gốc và bối cảnh ra đời", EN: "1. The problem it was made for"}},
		{ID: "2", Title: Text{VI: "2. Mô hình tư duy cốt lõi", EN: "2. The core mental model"}},
		{ID: "3", Title: Text{VI: "3. Internals và quyết định thiết kế", EN: "3. Internals and design decisions"}},
		{ID: "3.1", Title: Text{VI: "3.1 SDS: có độ dài đi kèm, cấp phát dư khi nối", EN: "3.1 SDS: a length kept with the bytes, spare room on append"},
			Lessons: []string{"sds-growth", "sds-big"}},
		{ID: "3.2", Title: Text{VI: "3.2 TTL: lệnh nào giữ, lệnh nào xoá", EN: "3.2 TTL: which commands keep it, which clear it"},
			Lessons: []string{"ttl"}},
		{ID: "3.3", Title: Text{VI: "3.3 Bộ đếm: INCR, INCRBYFLOAT và INCREX (8.8)", EN: "3.3 Counters: INCR, INCRBYFLOAT and INCREX (8.8)"},
			Lessons: []string{"counters-float", "counters"}},
		{ID: "3.4", Title: Text{VI: "3.4 Compare-and-set trên server: SET … IFEQ, DELEX, DIGEST (8.4)", EN: "3.4 Compare-and-set on the server: SET … IFEQ, DELEX, DIGEST (8.4)"},
			Lessons: []string{"locks"}},
		{ID: "3.5", Title: Text{VI: "3.5 Bitmap: bit thứ N là id N", EN: "3.5 Bitmaps: bit N stands for id N"},
			Lessons: []string{"bit-offsets", "bitop", "bitop-new", "attendance", "bit-far"}},
		{ID: "3.6", Title: Text{VI: "3.6 Bitfield: hàng triệu số nhỏ trong một chuỗi", EN: "3.6 Bitfields: millions of small numbers in one string"},
			Lessons: []string{"bitfield"}},
		{ID: "3.7", Title: Text{VI: "3.7 HyperLogLog: đếm phần tử khác nhau bằng 16 384 thanh ghi", EN: "3.7 HyperLogLog: counting distinct elements with 16 384 registers"},
			Lessons: []string{"hll-registers", "hll-sparse", "hll-estimate", "hll-week"}},
		{ID: "4", Title: Text{VI: "4. Đảm bảo và giới hạn", EN: "4. Guarantees and limits"}},
		{ID: "5", Title: Text{VI: "5. Failure modes", EN: "5. Failure modes"}},
		{ID: "5.1", Title: Text{VI: "5.1 Lab Laravel: những gì facade làm khác bạn nghĩ", EN: "5.1 Laravel lab: what the facades do that you would not expect"}, App: true},
		{ID: "5.2", Title: Text{VI: "5.2 Code nên viết", EN: "5.2 The code to write"}, App: true,
			Lessons: []string{"counters", "locks"}},
		{ID: "6", Title: Text{VI: "6. Vận hành trong production", EN: "6. Running it in production"}},
		{ID: "7", Title: Text{VI: "7. So sánh và ma trận quyết định", EN: "7. Comparison and decision matrix"}},
		{ID: "8", Title: Text{VI: "8. Góc nhìn tech lead: tác động tổ chức", EN: "8. A tech lead's view: the effect on the team"}},
		{ID: "9", Title: Text{VI: "9. Anti-patterns và bài học thực tế", EN: "9. Anti-patterns and lessons from practice"}},
		{ID: "10", Title: Text{VI: "10. Câu hỏi phụ interviewer hay hỏi tiếp", EN: "10. Follow-up questions interviewers ask"}},
	}},
	{ID: "001", Title: Text{VI: "Hash và Set", EN: "Hashes and sets"}, Short: Text{VI: "Hash và Set", EN: "Hashes and sets"}, Sections: []Section{
		{ID: "1", Title: Text{VI: "1. Bài toán gốc và bối cảnh ra đời", EN: "1. The problem they were made for"}},
		{ID: "2", Title: Text{VI: "2. Mô hình tư duy cốt lõi", EN: "2. The core mental model"},
			Lessons: []string{"encodings-set", "encodings-version"}},
		{ID: "3", Title: Text{VI: "3. Internals và quyết định thiết kế", EN: "3. Internals and design decisions"}},
		{ID: "3.1", Title: Text{VI: "3.1 TTL từng field: ebuckets, và lệnh nào giữ/xoá TTL", EN: "3.1 A TTL per field: ebuckets, and which commands keep or clear it"},
			Lessons: []string{"hash-field-ttl"}},
		{ID: "3.2", Title: Text{VI: "3.2 Listpack đổi CPU lấy RAM — và vì sao không nên nâng ngưỡng", EN: "3.2 A listpack trades CPU for memory, and why not to raise the limit"},
			Lessons: []string{"encodings-hash", "listpack-cpu"}},
		{ID: "3.3", Title: Text{VI: "3.3 Object: hash, string JSON hay RedisJSON?", EN: "3.3 An object: a hash, a JSON string or RedisJSON?"},
			Lessons: []string{"hash-vs-json"}},
		{ID: "3.4", Title: Text{VI: "3.4 Phép tập hợp trên set lớn", EN: "3.4 Set operations on big sets"},
			Lessons: []string{"set-algebra"}},
		{ID: "3.5", Title: Text{VI: "3.5 Rút ngẫu nhiên: SRANDMEMBER và SPOP không đều", EN: "3.5 Random draws: SRANDMEMBER and SPOP are not even"},
			Lessons: []string{"fair-draws"}},
		{ID: "4", Title: Text{VI: "4. Đảm bảo và giới hạn", EN: "4. Guarantees and limits"}},
		{ID: "5", Title: Text{VI: "5. Failure modes", EN: "5. Failure modes"}},
		{ID: "6", Title: Text{VI: "6. Vận hành trong production", EN: "6. Running them in production"}},
		{ID: "6.1", Title: Text{VI: "6.1 Code Laravel (đã chạy thật)", EN: "6.1 Laravel code (run for real)"}, App: true,
			Lessons: []string{"cart-script", "cart-presence"}},
		{ID: "7", Title: Text{VI: "7. So sánh và ma trận quyết định", EN: "7. Comparison and decision matrix"}},
		{ID: "8", Title: Text{VI: "8. Góc nhìn tech lead: tác động tổ chức", EN: "8. A tech lead's view: the effect on the team"}},
		{ID: "9", Title: Text{VI: "9. Anti-patterns và bài học thực tế", EN: "9. Anti-patterns and lessons from practice"}},
		{ID: "10", Title: Text{VI: "10. Câu hỏi phụ interviewer hay hỏi tiếp", EN: "10. Follow-up questions interviewers ask"}},
	}},
	{ID: "003", Title: Text{VI: "Chọn kiểu dữ liệu theo use case", EN: "Choosing a data type by use case"}, Short: Text{VI: "Sáu use case", EN: "Six use cases"}, Sections: []Section{
		{ID: "uc1", Title: Text{VI: "Use case 1: Cache profile user", EN: "Use case 1: caching user profiles"},
			Lessons: []string{"profile-hash"}},
		{ID: "uc2", Title: Text{VI: "Use case 2: Giỏ hàng", EN: "Use case 2: the shopping cart"},
			Lessons: []string{"cart-hash", "cart-voucher", "cart-script"}},
		{ID: "uc3", Title: Text{VI: "Use case 3: Top sản phẩm bán chạy theo ngày", EN: "Use case 3: the day's best sellers"},
			Lessons: []string{"leaderboard", "lost-update"}},
		{ID: "uc4", Title: Text{VI: "Use case 4: Đếm user truy cập duy nhất mỗi ngày", EN: "Use case 4: unique visitors per day"},
			Lessons: []string{"unique-visitors", "hll-estimate"}},
		{ID: "uc5", Title: Text{VI: "Use case 5: Đánh dấu user đã điểm danh theo ngày", EN: "Use case 5: marking who checked in each day"},
			Lessons: []string{"attendance", "bit-far"}},
		{ID: "uc6", Title: Text{VI: "Use case 6: Hàng đợi việc nhẹ như gửi email", EN: "Use case 6: a queue of light jobs such as emails"},
			Lessons: []string{"queue-brpop", "queue-lmove", "queue-stream"}},
	}},
	{ID: "004", Title: Text{VI: "Bloom filter, HyperLogLog và consistent hashing", EN: "Bloom filters, HyperLogLog and consistent hashing"}, Short: Text{VI: "Bloom, HLL, consistent hashing", EN: "Bloom, HLL, consistent hashing"}, Sections: []Section{
		{ID: "c1", Title: Text{VI: "Khái niệm: cấu trúc xác suất, đổi độ chính xác lấy memory", EN: "Concept: probabilistic structures trade accuracy for memory"}},
		{ID: "c2", Title: Text{VI: "Khái niệm: Bloom filter, k hash function trên một mảng bit", EN: "Concept: a Bloom filter, k hash functions over a bit array"},
			Lessons: []string{"bloom"}},
		{ID: "c3", Title: Text{VI: "Khái niệm: Bloom filter trong backend, cache penetration và LSM tree", EN: "Concept: Bloom filters in a backend, cache penetration and LSM trees"}, App: true},
		{ID: "c4", Title: Text{VI: "Khái niệm: HyperLogLog đếm distinct bằng số số 0 đứng đầu", EN: "Concept: HyperLogLog counts distinct elements by leading zeros"},
			Lessons: []string{"hll-registers"}},
		{ID: "c5", Title: Text{VI: "Khái niệm: pre-aggregation và câu hỏi nghiệp vụ", EN: "Concept: pre-aggregation and the business question"}},
		{ID: "c6", Title: Text{VI: "Khái niệm: consistent hashing chỉ di chuyển khoảng 1/N key", EN: "Concept: consistent hashing moves only about 1/N of the keys"},
			Lessons: []string{"ring"}},
		{ID: "c7", Title: Text{VI: "Khái niệm: hash slot của Redis Cluster và hot key", EN: "Concept: Redis Cluster's hash slots and hot keys"},
			Lessons: []string{"cluster-slots", "ring"}},
		{ID: "ex1", Title: Text{VI: "Ví dụ: Bloom filter, kích thước, false positive và khi đầy quá tải", EN: "Example: a Bloom filter's size, false positives and overfilling"},
			Lessons: []string{"bloom"}},
		{ID: "ex2", Title: Text{VI: "Ví dụ: HyperLogLog, unique theo ngày và theo tuần", EN: "Example: HyperLogLog, unique visitors per day and per week"},
			Lessons: []string{"hll-week"}},
		{ID: "ex3", Title: Text{VI: "Ví dụ: % N so với consistent hashing, và hash slot", EN: "Example: % N against consistent hashing, and hash slots"},
			Lessons: []string{"ring"}},
		{ID: "ex4", Title: Text{VI: "Ví dụ: dedupe webhook 5.000 event/giây", EN: "Example: deduplicating 5 000 webhook events a second"},
			Lessons: []string{"webhook-dedupe"}},
	}},
}

// FindSection returns the article and section a course line names, or an error that says
// what the course has.
func FindSection(article, section string) (*Article, *Section, error) {
	var ids []string
	for i := range Course {
		a := &Course[i]
		ids = append(ids, a.ID)
		if a.ID != article {
			continue
		}
		var secs []string
		for j := range a.Sections {
			if a.Sections[j].ID == section {
				return a, &a.Sections[j], nil
			}
			secs = append(secs, a.Sections[j].ID)
		}
		return nil, nil, fmt.Errorf("course %s %s: article %s has no section %q (it has %s)", article, section, article, section, strings.Join(secs, " "))
	}
	return nil, nil, fmt.Errorf("course %s %s: no article %q in the course (want %s)", article, section, article, strings.Join(ids, ", "))
}

// parseCourse reads the rest of a `course ARTICLE SECTION` line and checks it names a section
// of Course.
func parseCourse(rest string) (CourseRef, error) {
	f := strings.Fields(rest)
	if len(f) != 2 {
		return CourseRef{}, fmt.Errorf("course needs ARTICLE SECTION, e.g. course 000 3.1 or course 003 uc6 (lesson/FORMAT.md)")
	}
	r := CourseRef{Article: f[0], Section: f[1]}
	if _, _, err := FindSection(r.Article, r.Section); err != nil {
		return CourseRef{}, err
	}
	return r, nil
}

// CourseGroup is one group of the app's lesson list: the lessons whose first course line names
// Section (Article and Section nil: the lessons that follow no section, listed last).
type CourseGroup struct {
	Article *Article
	Section *Section
	Lessons []*Lesson
}

// Label is the group's name in lang: "article — section" (the article's short name), or other
// for the lessons that follow no section.
func (g CourseGroup) Label(lang, other string) string {
	if g.Section == nil {
		return other
	}
	return g.Article.Short.In(lang) + " — " + g.Section.Title.In(lang)
}

// CourseGroups sorts lessons (headers are enough) into the course's order: a group for each
// section that is the first course line of some lesson, in the order of Course, its lessons in
// the section's Lessons order (others after, by name); then the lessons without a course line,
// by name. Empty groups are left out.
func CourseGroups(ls []*Lesson) []CourseGroup {
	type place struct{ art, sec int }
	at := map[CourseRef]place{}
	for i, a := range Course {
		for j, s := range a.Sections {
			at[CourseRef{a.ID, s.ID}] = place{i, j}
		}
	}
	byPlace := map[place][]*Lesson{}
	var other []*Lesson
	for _, l := range ls {
		if len(l.Course) == 0 {
			other = append(other, l)
			continue
		}
		p, ok := at[l.Course[0]]
		if !ok { // not from the parser: treat as following no section
			other = append(other, l)
			continue
		}
		byPlace[p] = append(byPlace[p], l)
	}
	var out []CourseGroup
	for i := range Course {
		a := &Course[i]
		for j := range a.Sections {
			s := &a.Sections[j]
			g := byPlace[place{i, j}]
			if len(g) == 0 {
				continue
			}
			rank := func(name string) int {
				for k, n := range s.Lessons {
					if n == name {
						return k
					}
				}
				return len(s.Lessons)
			}
			sort.SliceStable(g, func(x, y int) bool {
				rx, ry := rank(g[x].Name), rank(g[y].Name)
				if rx != ry {
					return rx < ry
				}
				return g[x].Name < g[y].Name
			})
			out = append(out, CourseGroup{Article: a, Section: s, Lessons: g})
		}
	}
	if len(other) > 0 {
		sort.SliceStable(other, func(x, y int) bool { return other[x].Name < other[y].Name })
		out = append(out, CourseGroup{Lessons: other})
	}
	return out
}

// CourseOrder is the lessons of CourseGroups one after the other: the course's order.
func CourseOrder(ls []*Lesson) []*Lesson {
	var out []*Lesson
	for _, g := range CourseGroups(ls) {
		out = append(out, g.Lessons...)
	}
	return out
}
