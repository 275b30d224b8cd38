/**
 * The command line program, loaded by the executable (cli.ts): runs it on
 * the process's arguments and sets the exit code. See the package README.
 */
import { run } from "./run.js";

// A reader that stops early (`lance-nd scan t.lance | head`) closes the pipe: stop quietly, as cat does.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  if (err.code === "EPIPE") process.exit(0);
  throw err;
});

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
