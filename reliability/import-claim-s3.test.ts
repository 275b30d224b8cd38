// The import claim on an object store (packages/lance-nd/README.md,
// "Guarantees", "On object stores"), through s3rver on loopback: the writer
// lock and the mark are objects under `_refs/tags/`; a second claim of the
// id is refused naming the holder, and after the holder is SIGKILLed in
// the middle of its import, `check` reports it and `check --repair` removes
// its rows, mark and lock.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { check, col, open, scan, write } from "lance-nd";
import { claimImport } from "lance-nd/internal";
import { killChildren, startChild } from "./helpers/children.js";
import { rowFor } from "./helpers/rows.js";
import { type ObjectStoreServer, startS3Server } from "@lance-nd/test-helpers";

let server: ObjectStoreServer;
beforeAll(async () => {
  server = await startS3Server();
});
afterAll(async () => {
  killChildren();
  await server?.stop();
});

async function ids(uri: string): Promise<string[]> {
  const found: string[] = [];
  for await (const batch of scan(await open(uri, { storageOptions: server.storageOptions })).project([]))
    found.push(String(batch.globalAttr("id")));
  return found.sort();
}

describe("the import claim on an S3-compatible server", () => {
  it("a held id is refused naming its holder; a SIGKILLed holder is reported and undone by check --repair", async () => {
    const uri = `${server.root}/data/claim.lance`;
    const storageOptions = server.storageOptions;
    await write(uri, [rowFor("base-0"), rowFor("base-1")], { storageOptions });
    const claim = { storageOptions, mode: "append" as const, branch: null, ids: ["s3-0"], wait: { timeoutMs: 0 } };
    const held = await claimImport(uri, claim);
    await expect(claimImport(uri, claim)).rejects.toThrow(`held by import ${held.mark.uuid}`);
    await held.release();

    const child = startChild("claim-worker", { uri, storageOptions, id: "s3-0" });
    await child.ready;
    child.process.kill("SIGKILL");
    await child.exited;
    expect(await ids(uri)).toEqual(["base-0", "base-1", "s3-0", "s3-0"]);
    const report = await check(uri, { storageOptions });
    expect(report).toMatchObject({ ok: false, leftoverImports: [{ mode: "append", ids: ["s3-0"], rows: 2 }] });
    expect(report.staleLocks).toHaveLength(1);
    const repaired = await check(uri, { storageOptions, repair: true });
    expect(repaired.repair).toMatchObject({ ok: true });
    expect(await ids(uri)).toEqual(["base-0", "base-1"]);
    expect(await (await open(uri, { storageOptions })).tags()).toEqual([]);
    await (await claimImport(uri, claim)).release();
    expect(await (await open(uri, { storageOptions })).countRows(col("__global_attrs__.id").eq("s3-0").toSql())).toBe(
      0,
    );
  });
});
