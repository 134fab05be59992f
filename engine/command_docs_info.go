package engine

// Help for INFO (info.go), in the form of command_docs.go.
func init() {
	commandDocs["info"] = Doc{Syntax: "INFO [section [section ...]]", En: "Reports the server's state and counters by section: server, clients, memory, persistence, stats, replication, cpu, commandstats, errorstats, keyspace …", Vi: "Báo cáo trạng thái và bộ đếm của máy chủ theo từng phần: server, clients, memory, persistence, stats, replication, cpu, commandstats, errorstats, keyspace …"}
}
