#!/usr/bin/env node
// `pnpm lance-nd ...` from the repository root: runs the built CLI
// (packages/cli/dist/cli.js) in the folder the user called pnpm from, so
// relative paths mean what they say with `pnpm -C <repo> lance-nd ...` too.
// pnpm starts scripts in the repository root and passes the caller's folder
// as INIT_CWD; the CLI runs in this process (no second process to signal).
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../packages/cli/dist/cli.js", import.meta.url));
if (process.env.INIT_CWD !== undefined) process.chdir(process.env.INIT_CWD);
await import(cli);
