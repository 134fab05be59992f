package engine

import (
	"sort"
	"strings"
)

// Command docs: what the console's HELP prints for a command — its syntax, the version of Redis
// that introduced it, its documentation group and a one-line summary in English and Vietnamese
// (written for redscope). Every command of the table has an entry (TestCommandDocs checks it),
// keyed by its full name ("get", "config|get"). The syntax lines follow the argument lists of
// Redis's src/commands/*.json; the since-versions and groups come from redis_commands.go for the
// commands Redis had in that snapshot, else from the Doc (newer commands, the RedisBloom ones).

// Doc is one command's help.
type Doc struct {
	Syntax string // "LPUSH key element [element ...]"
	En, Vi string // one-line summary
	Group  string // set only where redis_commands.go has no entry
	Since  string // likewise
}

// CommandHelp is a Doc with the since-version and group filled in.
type CommandHelp struct {
	Name      string // full name: "lpush", "config|get"
	Syntax    string
	Summary   string // in the language asked for
	Since     string // "1.0.0"; "" when unknown
	Group     string
	Simulated bool    // in the engine's command table
	Profile   Version // the first profile of the table that has it (when Simulated)
}

// LookupHelp returns the help of a command by its full name (any case; "config get" or
// "config|get"), in lang ("vi" or "en"): a command of the table, or a real Redis command the
// engine does not simulate (Simulated false, no syntax or summary). ok is false for a name that
// is neither.
func LookupHelp(name, lang string) (h CommandHelp, ok bool) {
	name = strings.ToLower(strings.Join(strings.Fields(name), "|"))
	h.Name = name
	if rc, ok := redisCommands[name]; ok {
		h.Since, h.Group = rc.since, rc.group
	}
	if c := tableCommand(name); c != nil {
		d := commandDocs[name]
		h.Syntax, h.Simulated, h.Profile = d.Syntax, true, c.Since
		h.Summary = d.En
		if lang != "en" {
			h.Summary = d.Vi
		}
		if d.Group != "" {
			h.Group = d.Group
		}
		if d.Since != "" {
			h.Since = d.Since
		} else if h.Since == "" {
			h.Since = c.Since.String() + ".0"
		}
		return h, true
	}
	return h, h.Since != ""
}

// tableCommand finds "get" or "config|get" in the command table, whatever the profile.
func tableCommand(full string) *Command {
	parent, sub, isSub := strings.Cut(full, "|")
	c := commandTable[parent]
	if c == nil || !isSub {
		return c
	}
	return c.Sub[sub]
}

// CommandGroup is the documentation group of a command ("bitmap", "hyperloglog", "list", …;
// "" when unknown).
func CommandGroup(name string) string {
	h, _ := LookupHelp(name, "en")
	return h.Group
}

// HelpNames lists the full names HELP knows — the table's commands and subcommands and the real
// Redis commands not simulated — sorted.
func HelpNames() []string {
	seen := map[string]bool{}
	for n := range redisCommands {
		seen[n] = true
	}
	for n, c := range commandTable {
		seen[n] = true
		for s := range c.Sub {
			seen[n+"|"+s] = true
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

var commandDocs = map[string]Doc{
	"append":                        {Syntax: "APPEND key value", En: "Adds bytes to the end of a string (creates it when missing); replies with the new length.", Vi: "Nối thêm byte vào cuối một chuỗi (tạo mới nếu chưa có); trả về độ dài mới."},
	"bf.add":                        {Syntax: "BF.ADD key item", En: "Adds one item to a Bloom filter, creating a default filter when the key is missing.", Vi: "Thêm một phần tử vào bộ lọc Bloom, tự tạo bộ lọc mặc định nếu khoá chưa có.", Group: "bf", Since: "RedisBloom"},
	"bf.card":                       {Syntax: "BF.CARD key", En: "Tells how many items were added to a Bloom filter.", Vi: "Cho biết đã thêm bao nhiêu phần tử vào bộ lọc Bloom.", Group: "bf", Since: "RedisBloom"},
	"bf.exists":                     {Syntax: "BF.EXISTS key item", En: "Asks a Bloom filter whether an item may have been added (1) or surely was not (0).", Vi: "Hỏi bộ lọc Bloom một phần tử có thể đã được thêm (1) hay chắc chắn chưa (0).", Group: "bf", Since: "RedisBloom"},
	"bf.info":                       {Syntax: "BF.INFO key [CAPACITY | SIZE | FILTERS | ITEMS | EXPANSION]", En: "Shows a Bloom filter's capacity, size, sub-filters, items and expansion rate.", Vi: "Cho xem dung lượng, kích thước, số bộ lọc con, số phần tử và hệ số mở rộng của bộ lọc Bloom.", Group: "bf", Since: "RedisBloom"},
	"bf.madd":                       {Syntax: "BF.MADD key item [item ...]", En: "Adds several items to a Bloom filter at once.", Vi: "Thêm nhiều phần tử vào bộ lọc Bloom một lần.", Group: "bf", Since: "RedisBloom"},
	"bf.mexists":                    {Syntax: "BF.MEXISTS key item [item ...]", En: "Checks several items against a Bloom filter at once.", Vi: "Kiểm tra nhiều phần tử với bộ lọc Bloom một lần.", Group: "bf", Since: "RedisBloom"},
	"bf.reserve":                    {Syntax: "BF.RESERVE key error_rate capacity [EXPANSION expansion] [NONSCALING]", En: "Creates an empty Bloom filter for a wanted error rate and capacity.", Vi: "Tạo bộ lọc Bloom rỗng theo tỉ lệ sai và sức chứa mong muốn.", Group: "bf", Since: "RedisBloom"},
	"bitcount":                      {Syntax: "BITCOUNT key [start end [BYTE | BIT]]", En: "Counts the set bits of a string, optionally in a byte or bit range.", Vi: "Đếm số bit 1 của một chuỗi, có thể trong một khoảng byte hoặc bit."},
	"bitfield":                      {Syntax: "BITFIELD key [GET encoding offset | [OVERFLOW WRAP | SAT | FAIL] <SET encoding offset value | INCRBY encoding offset increment> [GET encoding offset | [OVERFLOW WRAP | SAT | FAIL] <SET encoding offset value | INCRBY encoding offset increment> ...]]", En: "Reads, writes and increments integers of any width at any bit offset of a string.", Vi: "Đọc, ghi và cộng các số nguyên độ rộng tuỳ ý tại vị trí bit tuỳ ý trong chuỗi."},
	"bitfield_ro":                   {Syntax: "BITFIELD_RO key [GET encoding offset [GET encoding offset ...]]", En: "The read-only form of BITFIELD: only GET.", Vi: "Dạng chỉ đọc của BITFIELD: chỉ có GET."},
	"bitop":                         {Syntax: "BITOP <AND | OR | XOR | NOT> destkey key [key ...]", En: "Combines strings bit by bit (AND, OR, XOR, NOT …) into a destination key.", Vi: "Kết hợp các chuỗi theo từng bit (AND, OR, XOR, NOT …) vào một khoá đích."},
	"bitpos":                        {Syntax: "BITPOS key bit [start [end [BYTE | BIT]]]", En: "Finds the first bit set to 0 or 1 in a string, optionally in a range.", Vi: "Tìm bit đầu tiên bằng 0 hoặc 1 trong chuỗi, có thể trong một khoảng."},
	"blmove":                        {Syntax: "BLMOVE source destination <LEFT | RIGHT> <LEFT | RIGHT> timeout", En: "LMOVE that would wait for an element; redscope never blocks, so an empty source answers at once.", Vi: "LMOVE có chờ phần tử; redscope không bao giờ chờ nên nguồn rỗng trả lời ngay."},
	"blmpop":                        {Syntax: "BLMPOP timeout numkeys key [key ...] <LEFT | RIGHT> [COUNT count]", En: "LMPOP that would wait for an element; answers at once in redscope.", Vi: "LMPOP có chờ phần tử; trong redscope trả lời ngay."},
	"blpop":                         {Syntax: "BLPOP key [key ...] timeout", En: "Pops from the head of the first non-empty list; would wait when all are empty.", Vi: "Lấy ra từ đầu list đầu tiên không rỗng; sẽ chờ nếu tất cả đều rỗng."},
	"brpop":                         {Syntax: "BRPOP key [key ...] timeout", En: "Pops from the tail of the first non-empty list; would wait when all are empty.", Vi: "Lấy ra từ đuôi list đầu tiên không rỗng; sẽ chờ nếu tất cả đều rỗng."},
	"brpoplpush":                    {Syntax: "BRPOPLPUSH source destination timeout", En: "RPOPLPUSH that would wait for an element.", Vi: "RPOPLPUSH có chờ phần tử."},
	"bzmpop":                        {Syntax: "BZMPOP timeout numkeys key [key ...] <MIN | MAX> [COUNT count]", En: "ZMPOP that would wait for a member.", Vi: "ZMPOP có chờ phần tử."},
	"bzpopmax":                      {Syntax: "BZPOPMAX key [key ...] timeout", En: "Pops the highest-scored member of the first non-empty sorted set; would wait otherwise.", Vi: "Lấy ra phần tử điểm cao nhất của sorted set đầu tiên không rỗng; nếu không thì chờ."},
	"bzpopmin":                      {Syntax: "BZPOPMIN key [key ...] timeout", En: "Pops the lowest-scored member of the first non-empty sorted set; would wait otherwise.", Vi: "Lấy ra phần tử điểm thấp nhất của sorted set đầu tiên không rỗng; nếu không thì chờ."},
	"cluster":                       {Syntax: "CLUSTER", En: "Commands of Redis Cluster; redscope is one node without cluster mode (only KEYSLOT answers).", Vi: "Các lệnh của Redis Cluster; redscope là một node không bật cluster (chỉ KEYSLOT trả lời)."},
	"command":                       {Syntax: "COMMAND", En: "Describes every command the server knows.", Vi: "Mô tả mọi lệnh mà server biết."},
	"command|count":                 {Syntax: "COMMAND COUNT", En: "Counts the commands the server knows.", Vi: "Đếm số lệnh server biết."},
	"command|docs":                  {Syntax: "COMMAND DOCS [command-name [command-name ...]]", En: "Gives documentation entries for commands.", Vi: "Trả về mục tài liệu của các lệnh."},
	"command|getkeys":               {Syntax: "COMMAND GETKEYS command [arg [arg ...]]", En: "Extracts the key names from a full command line.", Vi: "Tách tên khoá ra khỏi một dòng lệnh đầy đủ."},
	"command|getkeysandflags":       {Syntax: "COMMAND GETKEYSANDFLAGS command [arg [arg ...]]", En: "Extracts the key names from a full command line, each with its key-spec flags.", Vi: "Tách tên khoá ra khỏi một dòng lệnh đầy đủ, kèm cờ key-spec của từng khoá."},
	"command|help":                  {Syntax: "COMMAND HELP", En: "Lists the COMMAND subcommands.", Vi: "Liệt kê các lệnh con của COMMAND."},
	"command|info":                  {Syntax: "COMMAND INFO [command-name [command-name ...]]", En: "Describes the named commands (arity, flags, key positions).", Vi: "Mô tả các lệnh được nêu (arity, cờ, vị trí khoá)."},
	"command|list":                  {Syntax: "COMMAND LIST [FILTERBY MODULE module-name | ACLCAT category | PATTERN pattern]", En: "Lists command names, optionally filtered by ACL category or pattern.", Vi: "Liệt kê tên lệnh, có thể lọc theo nhóm ACL hoặc mẫu."},
	"config":                        {Syntax: "CONFIG", En: "Reads and changes the server's configuration.", Vi: "Đọc và thay đổi cấu hình của server."},
	"config|get":                    {Syntax: "CONFIG GET parameter [parameter ...]", En: "Reads configuration parameters (glob patterns allowed).", Vi: "Đọc tham số cấu hình (cho phép mẫu glob)."},
	"config|help":                   {Syntax: "CONFIG HELP", En: "Lists the CONFIG subcommands.", Vi: "Liệt kê các lệnh con của CONFIG."},
	"config|resetstat":              {Syntax: "CONFIG RESETSTAT", En: "Resets the server's statistics counters.", Vi: "Đặt lại các bộ đếm thống kê của server."},
	"config|rewrite":                {Syntax: "CONFIG REWRITE", En: "Writes the running configuration back to the config file.", Vi: "Ghi cấu hình đang chạy vào file cấu hình."},
	"config|set":                    {Syntax: "CONFIG SET parameter value [parameter value ...]", En: "Changes configuration parameters at run time (e.g. hash-max-listpack-entries).", Vi: "Đổi tham số cấu hình khi đang chạy (ví dụ hash-max-listpack-entries)."},
	"copy":                          {Syntax: "COPY source destination [DB destination-db] [REPLACE]", En: "Copies a key's value to another key, optionally replacing it.", Vi: "Sao chép giá trị của một khoá sang khoá khác, có thể ghi đè."},
	"dbsize":                        {Syntax: "DBSIZE", En: "Counts the keys of the current database.", Vi: "Đếm số khoá của cơ sở dữ liệu hiện tại."},
	"debug":                         {Syntax: "DEBUG", En: "Debugging helpers (redscope keeps those that show internals, e.g. DEBUG SDSLEN).", Vi: "Công cụ gỡ lỗi (redscope giữ những lệnh cho xem bên trong, ví dụ DEBUG SDSLEN)."},
	"decr":                          {Syntax: "DECR key", En: "Subtracts one from an integer string.", Vi: "Trừ một khỏi chuỗi số nguyên."},
	"decrby":                        {Syntax: "DECRBY key decrement", En: "Subtracts a number from an integer string.", Vi: "Trừ một số khỏi chuỗi số nguyên."},
	"del":                           {Syntax: "DEL key [key ...]", En: "Removes keys; replies with how many existed.", Vi: "Xoá các khoá; trả về số khoá đã tồn tại."},
	"delex":                         {Syntax: "DELEX key [IFEQ value | IFNE value | IFDEQ digest | IFDNE digest]", En: "Deletes a key, optionally only when its value or digest matches.", Vi: "Xoá một khoá, có thể chỉ khi giá trị hoặc digest khớp.", Group: "string"},
	"digest":                        {Syntax: "DIGEST key", En: "Gives a hash digest (XXH3) of a string's value.", Vi: "Trả về digest (XXH3) của giá trị một chuỗi.", Group: "string"},
	"discard":                       {Syntax: "DISCARD", En: "Drops the commands queued since MULTI.", Vi: "Bỏ các lệnh đã xếp hàng từ MULTI."},
	"echo":                          {Syntax: "ECHO message", En: "Replies with its argument.", Vi: "Trả về đúng đối số."},
	"exec":                          {Syntax: "EXEC", En: "Runs the commands queued since MULTI, all together.", Vi: "Chạy cùng lúc các lệnh đã xếp hàng từ MULTI."},
	"exists":                        {Syntax: "EXISTS key [key ...]", En: "Counts how many of the given keys exist.", Vi: "Đếm bao nhiêu khoá trong danh sách tồn tại."},
	"expire":                        {Syntax: "EXPIRE key seconds [NX | XX | GT | LT]", En: "Sets a key's time to live in seconds.", Vi: "Đặt thời gian sống của khoá, tính bằng giây."},
	"expireat":                      {Syntax: "EXPIREAT key unix-time-seconds [NX | XX | GT | LT]", En: "Sets the Unix time (seconds) at which a key expires.", Vi: "Đặt thời điểm Unix (giây) khoá hết hạn."},
	"expiretime":                    {Syntax: "EXPIRETIME key", En: "Tells the Unix time (seconds) at which a key expires.", Vi: "Cho biết thời điểm Unix (giây) khoá hết hạn."},
	"flushall":                      {Syntax: "FLUSHALL [ASYNC | SYNC]", En: "Removes every key of every database.", Vi: "Xoá mọi khoá của mọi cơ sở dữ liệu."},
	"flushdb":                       {Syntax: "FLUSHDB [ASYNC | SYNC]", En: "Removes every key of the current database.", Vi: "Xoá mọi khoá của cơ sở dữ liệu hiện tại."},
	"get":                           {Syntax: "GET key", En: "Reads a string value.", Vi: "Đọc giá trị chuỗi."},
	"getbit":                        {Syntax: "GETBIT key offset", En: "Reads one bit of a string.", Vi: "Đọc một bit của chuỗi."},
	"getdel":                        {Syntax: "GETDEL key", En: "Reads a string and deletes the key.", Vi: "Đọc chuỗi rồi xoá khoá."},
	"getex":                         {Syntax: "GETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | PERSIST]", En: "Reads a string and sets or clears its expiry.", Vi: "Đọc chuỗi và đặt hoặc bỏ thời hạn của nó."},
	"getrange":                      {Syntax: "GETRANGE key start end", En: "Reads a byte range of a string.", Vi: "Đọc một đoạn byte của chuỗi."},
	"getset":                        {Syntax: "GETSET key value", En: "Writes a string and replies with the old value.", Vi: "Ghi chuỗi và trả về giá trị cũ."},
	"hdel":                          {Syntax: "HDEL key field [field ...]", En: "Removes fields from a hash.", Vi: "Xoá các field khỏi hash."},
	"hexists":                       {Syntax: "HEXISTS key field", En: "Tells whether a hash has a field.", Vi: "Cho biết hash có field hay không."},
	"hexpire":                       {Syntax: "HEXPIRE key seconds [NX | XX | GT | LT] FIELDS numfields field [field ...]", En: "Sets a time to live in seconds on hash fields.", Vi: "Đặt thời gian sống (giây) cho các field của hash."},
	"hexpireat":                     {Syntax: "HEXPIREAT key unix-time-seconds [NX | XX | GT | LT] FIELDS numfields field [field ...]", En: "Sets the Unix time (seconds) at which hash fields expire.", Vi: "Đặt thời điểm Unix (giây) các field của hash hết hạn."},
	"hexpiretime":                   {Syntax: "HEXPIRETIME key FIELDS numfields field [field ...]", En: "Tells when hash fields expire (Unix seconds).", Vi: "Cho biết khi nào các field của hash hết hạn (giây Unix)."},
	"hget":                          {Syntax: "HGET key field", En: "Reads one field of a hash.", Vi: "Đọc một field của hash."},
	"hgetall":                       {Syntax: "HGETALL key", En: "Reads every field and value of a hash.", Vi: "Đọc mọi field và giá trị của hash."},
	"hgetdel":                       {Syntax: "HGETDEL key FIELDS numfields field [field ...]", En: "Reads hash fields and deletes them.", Vi: "Đọc các field của hash rồi xoá chúng.", Group: "hash"},
	"hgetex":                        {Syntax: "HGETEX key [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | PERSIST] FIELDS numfields field [field ...]", En: "Reads hash fields and sets or clears their expiry.", Vi: "Đọc các field của hash và đặt hoặc bỏ thời hạn của chúng.", Group: "hash"},
	"hincrby":                       {Syntax: "HINCRBY key field increment", En: "Adds an integer to a hash field.", Vi: "Cộng một số nguyên vào field của hash."},
	"hincrbyfloat":                  {Syntax: "HINCRBYFLOAT key field increment", En: "Adds a decimal number to a hash field.", Vi: "Cộng một số thực vào field của hash."},
	"hkeys":                         {Syntax: "HKEYS key", En: "Lists a hash's fields.", Vi: "Liệt kê các field của hash."},
	"hlen":                          {Syntax: "HLEN key", En: "Counts a hash's fields.", Vi: "Đếm số field của hash."},
	"hmget":                         {Syntax: "HMGET key field [field ...]", En: "Reads several fields of a hash.", Vi: "Đọc nhiều field của hash."},
	"hmset":                         {Syntax: "HMSET key field value [field value ...]", En: "Writes several fields of a hash (the older form of HSET).", Vi: "Ghi nhiều field của hash (dạng cũ của HSET)."},
	"hpersist":                      {Syntax: "HPERSIST key FIELDS numfields field [field ...]", En: "Removes the expiry of hash fields.", Vi: "Bỏ thời hạn của các field của hash."},
	"hpexpire":                      {Syntax: "HPEXPIRE key milliseconds [NX | XX | GT | LT] FIELDS numfields field [field ...]", En: "Sets a time to live in milliseconds on hash fields.", Vi: "Đặt thời gian sống (mili giây) cho các field của hash."},
	"hpexpireat":                    {Syntax: "HPEXPIREAT key unix-time-milliseconds [NX | XX | GT | LT] FIELDS numfields field [field ...]", En: "Sets the Unix time (milliseconds) at which hash fields expire.", Vi: "Đặt thời điểm Unix (mili giây) các field của hash hết hạn."},
	"hpexpiretime":                  {Syntax: "HPEXPIRETIME key FIELDS numfields field [field ...]", En: "Tells when hash fields expire (Unix milliseconds).", Vi: "Cho biết khi nào các field của hash hết hạn (mili giây Unix)."},
	"hpttl":                         {Syntax: "HPTTL key FIELDS numfields field [field ...]", En: "Tells how many milliseconds hash fields have left.", Vi: "Cho biết các field của hash còn bao nhiêu mili giây."},
	"hrandfield":                    {Syntax: "HRANDFIELD key [count [WITHVALUES]]", En: "Picks random fields of a hash.", Vi: "Chọn ngẫu nhiên field của hash."},
	"hscan":                         {Syntax: "HSCAN key cursor [MATCH pattern] [COUNT count] [NOVALUES]", En: "Walks a hash's fields a few at a time with a cursor.", Vi: "Duyệt dần các field của hash bằng con trỏ."},
	"hset":                          {Syntax: "HSET key field value [field value ...]", En: "Writes fields of a hash; replies with how many were new.", Vi: "Ghi các field của hash; trả về số field mới."},
	"hsetex":                        {Syntax: "HSETEX key [FNX | FXX] [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL] FIELDS numfields field value [field value ...]", En: "Writes hash fields with an expiry.", Vi: "Ghi các field của hash kèm thời hạn.", Group: "hash"},
	"hsetnx":                        {Syntax: "HSETNX key field value", En: "Writes a hash field only when it is missing.", Vi: "Chỉ ghi field của hash khi field chưa có."},
	"hstrlen":                       {Syntax: "HSTRLEN key field", En: "Tells the length of a hash field's value.", Vi: "Cho biết độ dài giá trị của một field."},
	"httl":                          {Syntax: "HTTL key FIELDS numfields field [field ...]", En: "Tells how many seconds hash fields have left.", Vi: "Cho biết các field của hash còn bao nhiêu giây."},
	"hvals":                         {Syntax: "HVALS key", En: "Lists a hash's values.", Vi: "Liệt kê các giá trị của hash."},
	"incr":                          {Syntax: "INCR key", En: "Adds one to an integer string.", Vi: "Cộng một vào chuỗi số nguyên."},
	"incrby":                        {Syntax: "INCRBY key increment", En: "Adds a number to an integer string.", Vi: "Cộng một số vào chuỗi số nguyên."},
	"incrbyfloat":                   {Syntax: "INCRBYFLOAT key increment", En: "Adds a decimal number to a string.", Vi: "Cộng một số thực vào chuỗi."},
	"increx":                        {Syntax: "INCREX key [BYFLOAT increment | BYINT increment] [LBOUND lower] [UBOUND upper] [SATURATE] [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | PERSIST] [ENX]", En: "Adds to a counter within bounds, optionally setting its expiry (a rate limiter in one command).", Vi: "Cộng vào bộ đếm trong giới hạn, có thể đặt thời hạn (bộ giới hạn tốc độ trong một lệnh).", Group: "string"},
	"keys":                          {Syntax: "KEYS pattern", En: "Lists the keys matching a glob pattern (walks the whole keyspace).", Vi: "Liệt kê khoá khớp mẫu glob (duyệt toàn bộ keyspace)."},
	"lcs":                           {Syntax: "LCS key1 key2 [LEN] [IDX] [MINMATCHLEN min-match-len] [WITHMATCHLEN]", En: "Finds the longest common subsequence of two strings.", Vi: "Tìm dãy con chung dài nhất của hai chuỗi."},
	"lindex":                        {Syntax: "LINDEX key index", En: "Reads the element at an index of a list.", Vi: "Đọc phần tử tại một chỉ số của list."},
	"linsert":                       {Syntax: "LINSERT key <BEFORE | AFTER> pivot element", En: "Inserts an element before or after a pivot element.", Vi: "Chèn phần tử trước hoặc sau một phần tử mốc."},
	"llen":                          {Syntax: "LLEN key", En: "Tells a list's length.", Vi: "Cho biết độ dài list."},
	"lmove":                         {Syntax: "LMOVE source destination <LEFT | RIGHT> <LEFT | RIGHT>", En: "Pops an element from one end of a list and pushes it at an end of another.", Vi: "Lấy một phần tử ở một đầu list và đẩy vào một đầu của list khác."},
	"lmpop":                         {Syntax: "LMPOP numkeys key [key ...] <LEFT | RIGHT> [COUNT count]", En: "Pops elements from the first non-empty list of several.", Vi: "Lấy phần tử từ list đầu tiên không rỗng trong nhiều list."},
	"lpop":                          {Syntax: "LPOP key [count]", En: "Removes and returns elements from the head of a list.", Vi: "Lấy ra và xoá phần tử ở đầu list."},
	"lpos":                          {Syntax: "LPOS key element [RANK rank] [COUNT num-matches] [MAXLEN len]", En: "Finds the index of matching elements in a list.", Vi: "Tìm chỉ số của các phần tử khớp trong list."},
	"lpush":                         {Syntax: "LPUSH key element [element ...]", En: "Inserts elements at the head of a list.", Vi: "Chèn phần tử vào đầu list."},
	"lpushx":                        {Syntax: "LPUSHX key element [element ...]", En: "LPUSH only when the list exists.", Vi: "LPUSH chỉ khi list đã tồn tại."},
	"lrange":                        {Syntax: "LRANGE key start stop", En: "Reads a range of elements of a list.", Vi: "Đọc một đoạn phần tử của list."},
	"lrem":                          {Syntax: "LREM key count element", En: "Removes elements equal to a value (count from the head, the tail, or all).", Vi: "Xoá các phần tử bằng một giá trị (đếm từ đầu, từ đuôi, hoặc tất cả)."},
	"lset":                          {Syntax: "LSET key index element", En: "Replaces the element at an index of a list.", Vi: "Thay phần tử tại một chỉ số của list."},
	"ltrim":                         {Syntax: "LTRIM key start stop", En: "Keeps only a range of a list.", Vi: "Chỉ giữ lại một đoạn của list."},
	"memory":                        {Syntax: "MEMORY", En: "Memory introspection.", Vi: "Xem xét bộ nhớ."},
	"memory|help":                   {Syntax: "MEMORY HELP", En: "Lists the MEMORY subcommands.", Vi: "Liệt kê các lệnh con của MEMORY."},
	"memory|purge":                  {Syntax: "MEMORY PURGE", En: "Asks the allocator to give back unused memory.", Vi: "Yêu cầu bộ cấp phát trả lại bộ nhớ không dùng."},
	"memory|malloc-stats":           {Syntax: "MEMORY MALLOC-STATS", En: "The allocator's statistics: here jemalloc's version and the allocated bytes the engine models.", Vi: "Thống kê của bộ cấp phát: ở đây là phiên bản jemalloc và số byte đã cấp phát mà engine mô phỏng."},
	"memory|usage":                  {Syntax: "MEMORY USAGE key [SAMPLES count]", En: "Estimates the bytes a key and its value take.", Vi: "Ước lượng số byte mà khoá và giá trị của nó chiếm."},
	"mget":                          {Syntax: "MGET key [key ...]", En: "Reads several strings.", Vi: "Đọc nhiều chuỗi."},
	"move":                          {Syntax: "MOVE key db", En: "Moves a key to another database.", Vi: "Chuyển khoá sang cơ sở dữ liệu khác."},
	"mset":                          {Syntax: "MSET key value [key value ...]", En: "Writes several strings.", Vi: "Ghi nhiều chuỗi."},
	"msetex":                        {Syntax: "MSETEX numkeys key value [key value ...] [NX | XX] [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]", En: "Writes several strings with one expiry, all or none.", Vi: "Ghi nhiều chuỗi với một thời hạn, tất cả hoặc không gì cả.", Group: "string"},
	"msetnx":                        {Syntax: "MSETNX key value [key value ...]", En: "Writes several strings only if none of the keys exists.", Vi: "Ghi nhiều chuỗi chỉ khi không khoá nào tồn tại."},
	"multi":                         {Syntax: "MULTI", En: "Starts a transaction: later commands are queued until EXEC.", Vi: "Bắt đầu giao dịch: các lệnh sau được xếp hàng tới EXEC."},
	"object":                        {Syntax: "OBJECT", En: "Looks inside a key's value object.", Vi: "Xem bên trong đối tượng giá trị của khoá."},
	"object|encoding":               {Syntax: "OBJECT ENCODING key", En: "Tells how a value is stored (embstr, int, listpack, quicklist, hashtable …).", Vi: "Cho biết giá trị được lưu thế nào (embstr, int, listpack, quicklist, hashtable …)."},
	"object|freq":                   {Syntax: "OBJECT FREQ key", En: "Tells a key's LFU access counter.", Vi: "Cho biết bộ đếm truy cập LFU của khoá."},
	"object|help":                   {Syntax: "OBJECT HELP", En: "Lists the OBJECT subcommands.", Vi: "Liệt kê các lệnh con của OBJECT."},
	"object|idletime":               {Syntax: "OBJECT IDLETIME key", En: "Tells the seconds since a key was last used.", Vi: "Cho biết số giây từ lần cuối khoá được dùng."},
	"object|refcount":               {Syntax: "OBJECT REFCOUNT key", En: "Tells a value's reference count.", Vi: "Cho biết số tham chiếu tới giá trị."},
	"persist":                       {Syntax: "PERSIST key", En: "Removes a key's expiry.", Vi: "Bỏ thời hạn của khoá."},
	"pexpire":                       {Syntax: "PEXPIRE key milliseconds [NX | XX | GT | LT]", En: "Sets a key's time to live in milliseconds.", Vi: "Đặt thời gian sống của khoá, tính bằng mili giây."},
	"pexpireat":                     {Syntax: "PEXPIREAT key unix-time-milliseconds [NX | XX | GT | LT]", En: "Sets the Unix time (milliseconds) at which a key expires.", Vi: "Đặt thời điểm Unix (mili giây) khoá hết hạn."},
	"pexpiretime":                   {Syntax: "PEXPIRETIME key", En: "Tells the Unix time (milliseconds) at which a key expires.", Vi: "Cho biết thời điểm Unix (mili giây) khoá hết hạn."},
	"pfadd":                         {Syntax: "PFADD key [element [element ...]]", En: "Adds elements to a HyperLogLog.", Vi: "Thêm phần tử vào HyperLogLog."},
	"pfcount":                       {Syntax: "PFCOUNT key [key ...]", En: "Estimates how many distinct elements HyperLogLogs saw.", Vi: "Ước lượng số phần tử khác nhau mà các HyperLogLog đã thấy."},
	"pfdebug":                       {Syntax: "PFDEBUG subcommand key", En: "Shows a HyperLogLog's internals (registers, sparse opcodes, encoding).", Vi: "Cho xem bên trong HyperLogLog (thanh ghi, mã sparse, mã hoá)."},
	"pfmerge":                       {Syntax: "PFMERGE destkey [sourcekey [sourcekey ...]]", En: "Merges HyperLogLogs into one (register by register maximum).", Vi: "Gộp nhiều HyperLogLog thành một (lấy giá trị lớn nhất từng thanh ghi)."},
	"pfselftest":                    {Syntax: "PFSELFTEST", En: "Runs the HyperLogLog self-test.", Vi: "Chạy bài tự kiểm tra HyperLogLog."},
	"ping":                          {Syntax: "PING [message]", En: "Replies PONG (or the message): is the server there?", Vi: "Trả lời PONG (hoặc thông điệp): server còn đó không?"},
	"psetex":                        {Syntax: "PSETEX key milliseconds value", En: "Writes a string with a time to live in milliseconds.", Vi: "Ghi chuỗi kèm thời gian sống tính bằng mili giây."},
	"pttl":                          {Syntax: "PTTL key", En: "Tells how many milliseconds a key has left.", Vi: "Cho biết khoá còn bao nhiêu mili giây."},
	"randomkey":                     {Syntax: "RANDOMKEY", En: "Picks a random key.", Vi: "Chọn ngẫu nhiên một khoá."},
	"rename":                        {Syntax: "RENAME key newkey", En: "Renames a key, replacing the new name.", Vi: "Đổi tên khoá, ghi đè tên mới."},
	"renamenx":                      {Syntax: "RENAMENX key newkey", En: "Renames a key only when the new name is free.", Vi: "Đổi tên khoá chỉ khi tên mới chưa dùng."},
	"rpop":                          {Syntax: "RPOP key [count]", En: "Removes and returns elements from the tail of a list.", Vi: "Lấy ra và xoá phần tử ở đuôi list."},
	"rpoplpush":                     {Syntax: "RPOPLPUSH source destination", En: "Pops from the tail of one list and pushes at the head of another.", Vi: "Lấy từ đuôi một list và đẩy vào đầu list khác."},
	"rpush":                         {Syntax: "RPUSH key element [element ...]", En: "Appends elements at the tail of a list.", Vi: "Thêm phần tử vào đuôi list."},
	"rpushx":                        {Syntax: "RPUSHX key element [element ...]", En: "RPUSH only when the list exists.", Vi: "RPUSH chỉ khi list đã tồn tại."},
	"sadd":                          {Syntax: "SADD key member [member ...]", En: "Adds members to a set.", Vi: "Thêm phần tử vào set."},
	"scan":                          {Syntax: "SCAN cursor [MATCH pattern] [COUNT count] [TYPE type]", En: "Walks the keyspace a few keys at a time with a cursor.", Vi: "Duyệt dần keyspace bằng con trỏ."},
	"scard":                         {Syntax: "SCARD key", En: "Counts a set's members.", Vi: "Đếm số phần tử của set."},
	"sdiff":                         {Syntax: "SDIFF key [key ...]", En: "Members of the first set that no other set has.", Vi: "Các phần tử của set đầu mà các set khác không có."},
	"sdiffstore":                    {Syntax: "SDIFFSTORE destination key [key ...]", En: "SDIFF stored into a destination key.", Vi: "SDIFF lưu vào khoá đích."},
	"select":                        {Syntax: "SELECT index", En: "Switches to another database (0 to 15).", Vi: "Chuyển sang cơ sở dữ liệu khác (0 đến 15)."},
	"set":                           {Syntax: "SET key value [NX | XX] [GET] [EX seconds | PX milliseconds | EXAT unix-time-seconds | PXAT unix-time-milliseconds | KEEPTTL]", En: "Writes a string, with options for expiry and for only-if-missing or only-if-present.", Vi: "Ghi chuỗi, có tuỳ chọn thời hạn và chỉ-khi-chưa-có hoặc chỉ-khi-đã-có."},
	"setbit":                        {Syntax: "SETBIT key offset value", En: "Sets or clears one bit of a string, growing it when needed.", Vi: "Bật hoặc tắt một bit của chuỗi, nới rộng chuỗi khi cần."},
	"setex":                         {Syntax: "SETEX key seconds value", En: "Writes a string with a time to live in seconds.", Vi: "Ghi chuỗi kèm thời gian sống tính bằng giây."},
	"setnx":                         {Syntax: "SETNX key value", En: "Writes a string only when the key is missing.", Vi: "Chỉ ghi chuỗi khi khoá chưa có."},
	"setrange":                      {Syntax: "SETRANGE key offset value", En: "Overwrites part of a string at a byte offset, padding with zero bytes.", Vi: "Ghi đè một phần chuỗi tại vị trí byte, chèn byte 0 nếu thiếu."},
	"sinter":                        {Syntax: "SINTER key [key ...]", En: "Members every given set has.", Vi: "Các phần tử mà mọi set đều có."},
	"sintercard":                    {Syntax: "SINTERCARD numkeys key [key ...] [LIMIT limit]", En: "Counts the members of an intersection, optionally stopping at a limit.", Vi: "Đếm số phần tử của phần giao, có thể dừng ở một giới hạn."},
	"sinterstore":                   {Syntax: "SINTERSTORE destination key [key ...]", En: "SINTER stored into a destination key.", Vi: "SINTER lưu vào khoá đích."},
	"sismember":                     {Syntax: "SISMEMBER key member", En: "Tells whether a set has a member.", Vi: "Cho biết set có phần tử hay không."},
	"smembers":                      {Syntax: "SMEMBERS key", En: "Lists a set's members.", Vi: "Liệt kê các phần tử của set."},
	"smismember":                    {Syntax: "SMISMEMBER key member [member ...]", En: "Tells for several members whether a set has them.", Vi: "Cho biết với nhiều phần tử set có chúng hay không."},
	"smove":                         {Syntax: "SMOVE source destination member", En: "Moves a member from one set to another.", Vi: "Chuyển một phần tử từ set này sang set khác."},
	"sort":                          {Syntax: "SORT key [BY pattern] [LIMIT offset count] [GET pattern [GET pattern ...]] [ASC | DESC] [ALPHA] [STORE destination]", En: "Sorts a list, set or sorted set (numbers or text), optionally storing the result.", Vi: "Sắp xếp list, set hoặc sorted set (số hoặc chữ), có thể lưu kết quả."},
	"sort_ro":                       {Syntax: "SORT_RO key [BY pattern] [LIMIT offset count] [GET pattern [GET pattern ...]] [ASC | DESC] [ALPHA]", En: "The read-only form of SORT.", Vi: "Dạng chỉ đọc của SORT."},
	"spop":                          {Syntax: "SPOP key [count]", En: "Removes and returns random members of a set.", Vi: "Lấy ra và xoá ngẫu nhiên phần tử của set."},
	"srandmember":                   {Syntax: "SRANDMEMBER key [count]", En: "Picks random members of a set without removing them.", Vi: "Chọn ngẫu nhiên phần tử của set mà không xoá."},
	"srem":                          {Syntax: "SREM key member [member ...]", En: "Removes members from a set.", Vi: "Xoá phần tử khỏi set."},
	"sscan":                         {Syntax: "SSCAN key cursor [MATCH pattern] [COUNT count]", En: "Walks a set's members a few at a time with a cursor.", Vi: "Duyệt dần các phần tử của set bằng con trỏ."},
	"strlen":                        {Syntax: "STRLEN key", En: "Tells a string's length in bytes.", Vi: "Cho biết độ dài chuỗi tính bằng byte."},
	"substr":                        {Syntax: "SUBSTR key start end", En: "The old name of GETRANGE.", Vi: "Tên cũ của GETRANGE."},
	"sunion":                        {Syntax: "SUNION key [key ...]", En: "Members any of the given sets has.", Vi: "Các phần tử có trong ít nhất một set."},
	"sunionstore":                   {Syntax: "SUNIONSTORE destination key [key ...]", En: "SUNION stored into a destination key.", Vi: "SUNION lưu vào khoá đích."},
	"swapdb":                        {Syntax: "SWAPDB index1 index2", En: "Swaps the contents of two databases.", Vi: "Hoán đổi nội dung hai cơ sở dữ liệu."},
	"time":                          {Syntax: "TIME", En: "Tells the server's clock (seconds and microseconds).", Vi: "Cho biết đồng hồ của server (giây và micro giây)."},
	"touch":                         {Syntax: "TOUCH key [key ...]", En: "Marks keys as used; counts those that exist.", Vi: "Đánh dấu khoá vừa được dùng; đếm số khoá tồn tại."},
	"ttl":                           {Syntax: "TTL key", En: "Tells how many seconds a key has left.", Vi: "Cho biết khoá còn bao nhiêu giây."},
	"type":                          {Syntax: "TYPE key", En: "Tells a key's type (string, list, set, zset, hash …).", Vi: "Cho biết kiểu của khoá (string, list, set, zset, hash …)."},
	"unlink":                        {Syntax: "UNLINK key [key ...]", En: "Removes keys (the value may be freed in the background).", Vi: "Xoá khoá (giá trị có thể được giải phóng ở nền)."},
	"unwatch":                       {Syntax: "UNWATCH", En: "Forgets the keys WATCH is watching.", Vi: "Bỏ theo dõi các khoá của WATCH."},
	"watch":                         {Syntax: "WATCH key [key ...]", En: "Watches keys: a later EXEC fails if any changed.", Vi: "Theo dõi khoá: EXEC sau đó thất bại nếu có khoá bị đổi."},
	"zadd":                          {Syntax: "ZADD key [NX | XX] [GT | LT] [CH] [INCR] score member [score member ...]", En: "Adds members with scores to a sorted set, or updates their scores.", Vi: "Thêm phần tử kèm điểm vào sorted set, hoặc cập nhật điểm."},
	"zcard":                         {Syntax: "ZCARD key", En: "Counts a sorted set's members.", Vi: "Đếm số phần tử của sorted set."},
	"zcount":                        {Syntax: "ZCOUNT key min max", En: "Counts members with a score in a range.", Vi: "Đếm phần tử có điểm trong một khoảng."},
	"zdiff":                         {Syntax: "ZDIFF numkeys key [key ...] [WITHSCORES]", En: "Members of the first sorted set that no other has.", Vi: "Các phần tử của sorted set đầu mà các tập khác không có."},
	"zdiffstore":                    {Syntax: "ZDIFFSTORE destination numkeys key [key ...]", En: "ZDIFF stored into a destination key.", Vi: "ZDIFF lưu vào khoá đích."},
	"zincrby":                       {Syntax: "ZINCRBY key increment member", En: "Adds to a member's score.", Vi: "Cộng vào điểm của một phần tử."},
	"zinter":                        {Syntax: "ZINTER numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX] [WITHSCORES]", En: "Members every sorted set has, with combined scores.", Vi: "Các phần tử mà mọi sorted set đều có, với điểm kết hợp."},
	"zintercard":                    {Syntax: "ZINTERCARD numkeys key [key ...] [LIMIT limit]", En: "Counts the members of a sorted-set intersection.", Vi: "Đếm số phần tử của phần giao các sorted set."},
	"zinterstore":                   {Syntax: "ZINTERSTORE destination numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX]", En: "ZINTER stored into a destination key.", Vi: "ZINTER lưu vào khoá đích."},
	"zlexcount":                     {Syntax: "ZLEXCOUNT key min max", En: "Counts members in a lexicographic range (all scores equal).", Vi: "Đếm phần tử trong một khoảng theo thứ tự từ điển (điểm bằng nhau)."},
	"zmpop":                         {Syntax: "ZMPOP numkeys key [key ...] <MIN | MAX> [COUNT count]", En: "Pops the lowest or highest members from the first non-empty sorted set.", Vi: "Lấy ra phần tử thấp nhất hoặc cao nhất từ sorted set đầu tiên không rỗng."},
	"zmscore":                       {Syntax: "ZMSCORE key member [member ...]", En: "Reads the scores of several members.", Vi: "Đọc điểm của nhiều phần tử."},
	"zpopmax":                       {Syntax: "ZPOPMAX key [count]", En: "Removes and returns the highest-scored members.", Vi: "Lấy ra và xoá các phần tử điểm cao nhất."},
	"zpopmin":                       {Syntax: "ZPOPMIN key [count]", En: "Removes and returns the lowest-scored members.", Vi: "Lấy ra và xoá các phần tử điểm thấp nhất."},
	"zrandmember":                   {Syntax: "ZRANDMEMBER key [count [WITHSCORES]]", En: "Picks random members of a sorted set.", Vi: "Chọn ngẫu nhiên phần tử của sorted set."},
	"zrange":                        {Syntax: "ZRANGE key start stop [BYSCORE | BYLEX] [REV] [LIMIT offset count] [WITHSCORES]", En: "Reads members by rank, score or lexicographic range.", Vi: "Đọc phần tử theo thứ hạng, theo điểm hoặc theo thứ tự từ điển."},
	"zrangebylex":                   {Syntax: "ZRANGEBYLEX key min max [LIMIT offset count]", En: "Reads members in a lexicographic range.", Vi: "Đọc phần tử trong một khoảng từ điển."},
	"zrangebyscore":                 {Syntax: "ZRANGEBYSCORE key min max [WITHSCORES] [LIMIT offset count]", En: "Reads members with a score in a range.", Vi: "Đọc phần tử có điểm trong một khoảng."},
	"zrangestore":                   {Syntax: "ZRANGESTORE dst src min max [BYSCORE | BYLEX] [REV] [LIMIT offset count]", En: "ZRANGE stored into a destination key.", Vi: "ZRANGE lưu vào khoá đích."},
	"zrank":                         {Syntax: "ZRANK key member [WITHSCORE]", En: "Tells a member's rank, lowest score first.", Vi: "Cho biết thứ hạng của phần tử, điểm thấp nhất trước."},
	"zrem":                          {Syntax: "ZREM key member [member ...]", En: "Removes members from a sorted set.", Vi: "Xoá phần tử khỏi sorted set."},
	"zremrangebylex":                {Syntax: "ZREMRANGEBYLEX key min max", En: "Removes members in a lexicographic range.", Vi: "Xoá phần tử trong một khoảng từ điển."},
	"zremrangebyrank":               {Syntax: "ZREMRANGEBYRANK key start stop", En: "Removes members in a rank range.", Vi: "Xoá phần tử trong một khoảng thứ hạng."},
	"zremrangebyscore":              {Syntax: "ZREMRANGEBYSCORE key min max", En: "Removes members with a score in a range.", Vi: "Xoá phần tử có điểm trong một khoảng."},
	"zrevrange":                     {Syntax: "ZREVRANGE key start stop [WITHSCORES]", En: "Reads members by rank, highest score first.", Vi: "Đọc phần tử theo thứ hạng, điểm cao nhất trước."},
	"zrevrangebylex":                {Syntax: "ZREVRANGEBYLEX key max min [LIMIT offset count]", En: "Reads members in a lexicographic range, backwards.", Vi: "Đọc phần tử trong một khoảng từ điển, theo chiều ngược."},
	"zrevrangebyscore":              {Syntax: "ZREVRANGEBYSCORE key max min [WITHSCORES] [LIMIT offset count]", En: "Reads members with a score in a range, highest first.", Vi: "Đọc phần tử có điểm trong một khoảng, cao nhất trước."},
	"zrevrank":                      {Syntax: "ZREVRANK key member [WITHSCORE]", En: "Tells a member's rank, highest score first.", Vi: "Cho biết thứ hạng của phần tử, điểm cao nhất trước."},
	"zscan":                         {Syntax: "ZSCAN key cursor [MATCH pattern] [COUNT count]", En: "Walks a sorted set's members a few at a time with a cursor.", Vi: "Duyệt dần các phần tử của sorted set bằng con trỏ."},
	"zscore":                        {Syntax: "ZSCORE key member", En: "Reads a member's score.", Vi: "Đọc điểm của một phần tử."},
	"zunion":                        {Syntax: "ZUNION numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX] [WITHSCORES]", En: "Members any sorted set has, with combined scores.", Vi: "Các phần tử có trong ít nhất một sorted set, với điểm kết hợp."},
	"zunionstore":                   {Syntax: "ZUNIONSTORE destination numkeys key [key ...] [WEIGHTS weight [weight ...]] [AGGREGATE SUM | MIN | MAX]", En: "ZUNION stored into a destination key.", Vi: "ZUNION lưu vào khoá đích."},
	"cluster|keyslot":               {Syntax: "CLUSTER KEYSLOT key", En: "Tells the hash slot (0 to 16383) a key belongs to: CRC16 of the key or its {hash tag}.", Vi: "Cho biết hash slot (0 đến 16383) của khoá: CRC16 của khoá hoặc {hash tag} của nó."},
	"cluster|addslots":              {Syntax: "CLUSTER ADDSLOTS slot [slot ...]", En: "Assigns hash slots to this node.", Vi: "Giao hash slot cho node này."},
	"cluster|addslotsrange":         {Syntax: "CLUSTER ADDSLOTSRANGE start-slot end-slot [start-slot end-slot ...]", En: "Assigns ranges of hash slots to this node.", Vi: "Giao các khoảng hash slot cho node này."},
	"cluster|bumpepoch":             {Syntax: "CLUSTER BUMPEPOCH", En: "Advances this node's configuration epoch.", Vi: "Tăng epoch cấu hình của node này."},
	"cluster|count-failure-reports": {Syntax: "CLUSTER COUNT-FAILURE-REPORTS node-id", En: "Counts the failure reports about a node.", Vi: "Đếm số báo cáo lỗi về một node."},
	"cluster|countkeysinslot":       {Syntax: "CLUSTER COUNTKEYSINSLOT slot", En: "Counts the keys of a hash slot.", Vi: "Đếm số khoá của một hash slot."},
	"cluster|delslots":              {Syntax: "CLUSTER DELSLOTS slot [slot ...]", En: "Removes hash slots from this node.", Vi: "Gỡ hash slot khỏi node này."},
	"cluster|delslotsrange":         {Syntax: "CLUSTER DELSLOTSRANGE start-slot end-slot [start-slot end-slot ...]", En: "Removes ranges of hash slots from this node.", Vi: "Gỡ các khoảng hash slot khỏi node này."},
	"cluster|failover":              {Syntax: "CLUSTER FAILOVER [FORCE | TAKEOVER]", En: "Makes a replica take over from its master.", Vi: "Cho replica thay thế master của nó."},
	"cluster|flushslots":            {Syntax: "CLUSTER FLUSHSLOTS", En: "Removes every slot from this node.", Vi: "Gỡ mọi slot khỏi node này."},
	"cluster|forget":                {Syntax: "CLUSTER FORGET node-id", En: "Drops a node from this node's table.", Vi: "Xoá một node khỏi bảng của node này."},
	"cluster|getkeysinslot":         {Syntax: "CLUSTER GETKEYSINSLOT slot count", En: "Lists keys of a hash slot.", Vi: "Liệt kê khoá của một hash slot."},
	"cluster|help":                  {Syntax: "CLUSTER HELP", En: "Lists the CLUSTER subcommands.", Vi: "Liệt kê các lệnh con của CLUSTER."},
	"cluster|info":                  {Syntax: "CLUSTER INFO", En: "Shows the cluster's state.", Vi: "Cho xem trạng thái cluster."},
	"cluster|links":                 {Syntax: "CLUSTER LINKS", En: "Lists the links to the other nodes.", Vi: "Liệt kê các kết nối tới node khác."},
	"cluster|meet":                  {Syntax: "CLUSTER MEET ip port [cluster-bus-port]", En: "Joins another node to the cluster.", Vi: "Đưa một node khác vào cluster."},
	"cluster|myid":                  {Syntax: "CLUSTER MYID", En: "Tells this node's id.", Vi: "Cho biết id của node này."},
	"cluster|myshardid":             {Syntax: "CLUSTER MYSHARDID", En: "Tells this node's shard id.", Vi: "Cho biết id shard của node này."},
	"cluster|nodes":                 {Syntax: "CLUSTER NODES", En: "Lists the cluster's nodes.", Vi: "Liệt kê các node của cluster."},
	"cluster|replicas":              {Syntax: "CLUSTER REPLICAS node-id", En: "Lists the replicas of a master.", Vi: "Liệt kê các replica của một master."},
	"cluster|replicate":             {Syntax: "CLUSTER REPLICATE node-id", En: "Makes this node a replica of another.", Vi: "Biến node này thành replica của node khác."},
	"cluster|reset":                 {Syntax: "CLUSTER RESET [HARD | SOFT]", En: "Resets this node's cluster state.", Vi: "Đặt lại trạng thái cluster của node này."},
	"cluster|saveconfig":            {Syntax: "CLUSTER SAVECONFIG", En: "Saves the cluster configuration to disk.", Vi: "Lưu cấu hình cluster xuống đĩa."},
	"cluster|set-config-epoch":      {Syntax: "CLUSTER SET-CONFIG-EPOCH config-epoch", En: "Sets this node's configuration epoch.", Vi: "Đặt epoch cấu hình của node này."},
	"cluster|setslot":               {Syntax: "CLUSTER SETSLOT slot <IMPORTING node-id | MIGRATING node-id | NODE node-id | STABLE>", En: "Changes the state of a hash slot (migrating, importing, owner).", Vi: "Đổi trạng thái một hash slot (đang chuyển, đang nhận, chủ sở hữu)."},
	"cluster|shards":                {Syntax: "CLUSTER SHARDS", En: "Lists the cluster's shards.", Vi: "Liệt kê các shard của cluster."},
	"cluster|slaves":                {Syntax: "CLUSTER SLAVES node-id", En: "The old name of CLUSTER REPLICAS.", Vi: "Tên cũ của CLUSTER REPLICAS."},
	"cluster|slot-stats":            {Syntax: "CLUSTER SLOT-STATS <SLOTSRANGE start-slot end-slot | ORDERBY metric [LIMIT limit] [ASC | DESC]>", En: "Shows per-slot statistics.", Vi: "Cho xem thống kê theo từng slot.", Group: "cluster"},
	"cluster|slots":                 {Syntax: "CLUSTER SLOTS", En: "Lists which nodes serve which slots.", Vi: "Liệt kê node nào phục vụ slot nào."},
}

// addDocs adds the help of one file's commands (command_docs_*.go) to commandDocs.
func addDocs(docs map[string]Doc) {
	for name, d := range docs {
		commandDocs[name] = d
	}
}

// NotSimulatedPrefix starts the error reply of a real Redis command the engine does not simulate.
const NotSimulatedPrefix = "ERR redscope does not simulate '"

// notSimulated is the reply to a command of real Redis that the profile's Redis has and the
// command table lacks (a whole command such as XADD, or a subcommand such as MEMORY STATS):
// "ERR redscope does not simulate 'xadd' yet" — an error in Redis's syntax that does not claim
// Redis lacks the command. A name newer than the profile, or one real Redis never had, keeps
// Redis's unknown-command error; the commands of the table are never answered this way, so a
// command added to it is simulated from then on.
func (e *Engine) notSimulated(args [][]byte, c *Command) (Reply, bool) {
	full := strings.ToLower(string(args[0]))
	if c != nil {
		if len(args) < 2 {
			return Reply{}, false
		}
		full = c.Name + "|" + strings.ToLower(string(args[1]))
	}
	if tableCommand(full) != nil {
		return Reply{}, false
	}
	rc, ok := redisCommands[full]
	if !ok || !e.ver.Has(parseSince(rc.since)) {
		return Reply{}, false
	}
	return Err(NotSimulatedPrefix + full + "' yet"), true
}

// unknownCommand is the reply to a name missing from the profile's table.
func (e *Engine) unknownCommand(args [][]byte) Reply {
	if r, ok := e.notSimulated(args, nil); ok {
		return r
	}
	return errUnknownCommand(args)
}

// unknownSubcommand is the reply to a subcommand missing from the profile's table.
func (e *Engine) unknownSubcommand(c *Command, args [][]byte) Reply {
	if r, ok := e.notSimulated(args, c); ok {
		return r
	}
	return errUnknownSubcommand(c, args[1])
}

// parseSince turns "5.0.0" into the Version 5.0 (what Version.Has compares).
func parseSince(s string) Version {
	maj, rest, _ := strings.Cut(s, ".")
	mn, _, _ := strings.Cut(rest, ".")
	a, b, ok := string2llPair([]byte(maj), []byte(mn))
	if !ok {
		return 0xffff
	}
	return Version(a*100 + b)
}
