// Preloaded into a child (`node -r ./reliability/helpers/peak-rss.cjs ...`):
// prints the process's peak RSS (Linux VmHWM) to standard error at exit as
// `peak-rss-kib <n>`, so a test can bound the memory of the command line.
process.on("exit", () => {
  const match = /VmHWM:\s+(\d+)/.exec(require("node:fs").readFileSync("/proc/self/status", "utf8"));
  if (match) process.stderr.write(`peak-rss-kib ${match[1]}\n`);
});
