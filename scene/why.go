package scene

import (
	"strings"

	"redscope/engine"
)

// The engine reports why an encoding changed as a typed rule (engine.Why: a code and the figures
// it compared); this file phrases it in the reader's language, so a Vietnamese page never shows
// an English sentence from the engine. Config parameter names, command names and encoding names
// stay as Redis spells them (they are what a student types or reads in redis.conf).

// whyText phrases the rule w in lang ("vi" or "en").
func whyText(lang string, w engine.Why) string {
	en := lang == "en"
	t := func(e, v string) string {
		if en {
			return e
		}
		return v
	}
	n, lim := num(w.N), num(w.Limit)
	bytesN := trPlural(lang, w.N, "byte", "bytes", "byte")
	switch w.Code {
	case engine.WhySharedInt:
		return t("an integer 0…"+lim+": one of the shared objects", "số nguyên 0…"+lim+": dùng chung đối tượng có sẵn")
	case engine.WhyInt:
		return t("a 64-bit integer kept in the object's pointer", "số nguyên 64 bit, cất ngay trong con trỏ của đối tượng")
	case engine.WhyEmbstr:
		return t(bytesN+" ≤ "+lim+": object and sds in one allocation", bytesN+" ≤ "+lim+": đối tượng và sds chung một lần cấp phát")
	case engine.WhyEmbstrKV:
		return t(bytesN+" ≤ "+lim+": embedded in the 64-byte key object", bytesN+" ≤ "+lim+": nhúng vào đối tượng key 64 byte")
	case engine.WhyRaw:
		return t(bytesN+" > "+lim+": a separate sds", bytesN+" > "+lim+": sds riêng")
	case engine.WhyRawKV:
		return t("key and "+bytesN+" do not fit the 64-byte key object: a separate sds", "key và "+bytesN+" không vừa đối tượng key 64 byte: sds riêng")
	case engine.WhyBigArg:
		return t("an argument of "+bytesN+" ≥ "+lim+": the query buffer becomes the value", "đối số "+bytesN+" ≥ "+lim+": bộ đệm truy vấn thành giá trị luôn")
	case engine.WhyInPlace:
		return t(strings.ToUpper(w.Name)+" changes the value in place", strings.ToUpper(w.Name)+" sửa giá trị tại chỗ")
	case engine.WhySetrange:
		return t("SETRANGE on a missing key: a zero-filled sds of exactly "+bytesN, "SETRANGE trên key chưa có: sds toàn byte 0, đúng "+bytesN)
	case engine.WhyExpireKV:
		return t("the expire field takes the room the embedded value had in 64 bytes", "trường hết hạn chiếm chỗ của giá trị nhúng trong 64 byte")
	case engine.WhyEntries:
		return t(n+" entries > "+w.Name+" "+lim, n+" phần tử > "+w.Name+" "+lim)
	case engine.WhyBringsMore:
		return t("the command brings "+n+" > "+w.Name+" "+lim, "lệnh mang tới "+n+" > "+w.Name+" "+lim)
	case engine.WhyValue:
		return t("an element of "+bytesN+" > "+w.Name+" "+lim, "một phần tử "+bytesN+" > "+w.Name+" "+lim)
	case engine.WhyLPMax:
		return t("the listpack would pass 1 GiB", "listpack sẽ vượt 1 GiB")
	case engine.WhyHFE:
		return t("the first field-expiry command on a listpack hash", "lệnh hết hạn trường đầu tiên trên hash listpack")
	case engine.WhyNonInt:
		return t("a member that is not an integer", "thêm một member không phải số nguyên")
	case engine.WhyNonIntLP:
		return t("a member that is not an integer, the set still small", "thêm member không phải số nguyên, set còn nhỏ")
	case engine.WhyNonIntBig:
		return t("a member that is not an integer, too many for a listpack", "thêm member không phải số nguyên, quá nhiều cho listpack")
	case engine.WhyOnlyInts:
		return t("the stored result holds only integers", "kết quả lưu chỉ toàn số nguyên")
	case engine.WhySpopRebuild:
		return t("SPOP "+n+" leaves "+num(w.Extra)+": the set is rebuilt from what stays", "SPOP "+n+" chỉ để lại "+num(w.Extra)+": set được dựng lại từ phần còn lại")
	case engine.WhyFitsLP:
		return t(n+" members fit zset-max-listpack-entries "+lim, n+" member vừa zset-max-listpack-entries "+lim)
	case engine.WhyNewZset:
		return t("the new key does not fit a listpack", "key mới không vừa listpack")
	case engine.WhySort:
		return t("SORT needs a skiplist", "SORT cần skiplist")
	case engine.WhyListNode:
		return t(bytesN+" + "+plural(w.Extra, "new byte", "new bytes")+" pass list-max-listpack-size "+lim,
			bytesN+" + "+num(w.Extra)+" byte mới vượt list-max-listpack-size "+lim)
	case engine.WhyListShrink:
		return t("one node of "+bytesN+", under half the node limit", "một node "+bytesN+", dưới nửa giới hạn node")
	case engine.WhyListSort:
		return t("the SORT STORE result fits one listpack node", "kết quả SORT STORE vừa một node listpack")
	case engine.WhyHLLValue:
		return t("a register needs "+n+" > "+lim, "thanh ghi cần "+n+" > "+lim)
	case engine.WhyHLLBytes:
		return t("sparse would pass hll-sparse-max-bytes "+lim, "sparse sẽ vượt hll-sparse-max-bytes "+lim)
	case engine.WhyHLLCmd:
		return t(w.Name+" asks for the dense form", w.Name+" cần dạng dense")
	}
	return w.Code.String()
}
