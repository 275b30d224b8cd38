/**
 * The command line program, loaded by the executable (cli.ts): runs it on
 * the process's arguments and sets the exit code. See the package README.
 */
import { run } from "./run.js";

process.exitCode = await run(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr });
