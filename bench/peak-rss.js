// Loaded into a benchmarked process (node --import), it writes the process's peak resident
// memory, its threads' included, to stderr as it exits, for the benchmarks to read back:
// a line `peak-rss-kib N`.
process.on("exit", () => process.stderr.write(`\npeak-rss-kib ${process.resourceUsage().maxRSS}\n`));
