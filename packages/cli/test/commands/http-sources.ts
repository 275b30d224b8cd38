/**
 * What the tests of imports over HTTP share: sources that Python writes
 * before the test file's tests, in a temporary folder served by a local
 * file server that honours `Range` (@lance-nd/test-helpers'
 * `startFileServer`), stopped after the tests. Nothing is made when the
 * file's tests skip.
 */
import { join } from "node:path";
import { type FileServer, runPython, startFileServer } from "@lance-nd/test-helpers";
import { afterAll, beforeAll } from "vitest";
import { ensureBuilt, tempDir } from "./harness.js";

/** The folder of the sources and its server, set before the test file's tests. */
export interface HttpSources {
  readonly dir: string;
  readonly server: FileServer;
}

/**
 * Registers the test file's `beforeAll` (the built CLI, the folder, the
 * Python code `write` run with the folder, or `join(folder, target)` when
 * given, as its argument, the server) and `afterAll` (the server stopped).
 */
export function httpSources(skip: boolean, write: string, target?: string): HttpSources {
  const sources: { dir: string; server: FileServer | undefined } = { dir: "", server: undefined };
  beforeAll(async () => {
    if (skip) return;
    ensureBuilt();
    sources.dir = tempDir();
    runPython(["-c", write, target === undefined ? sources.dir : join(sources.dir, target)]);
    sources.server = await startFileServer(sources.dir);
  });
  afterAll(() => sources.server?.stop());
  return {
    get dir() {
      return sources.dir;
    },
    get server() {
      if (sources.server === undefined) throw new Error("the sources are served from the test file's beforeAll on");
      return sources.server;
    },
  };
}
