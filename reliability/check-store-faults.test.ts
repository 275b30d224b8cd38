// `check --repair` on an object store whose answers a fault-injecting proxy
// (test-helpers' startFaultProxy) replaces: 401/403 are an access refused,
// 5xx and a dropped connection are transient, and neither is damage: the
// check exits 1 naming the object and nothing is removed. A 404 of an
// object the manifest names is damage (packages/lance-nd README, "check"
// and "Guarantees").
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { append, check, open, write } from "lance-nd";
import { type FaultProxy, type StoreFault, startAzurite, startFaultProxy, startS3Server } from "@lance-nd/test-helpers";
import { count } from "./helpers/counters.js";
import { requireBuiltCli } from "./helpers/cli.js";
import { startCli } from "./helpers/import-runs.js";
import { rowsById } from "./helpers/plain-rows.js";
import { storeRow } from "./helpers/store-scenario.js";

// One retry per request, so a fault that stays costs seconds, not the store client's default minutes.
const RETRIES = { client_max_retries: "1" };
const DATA_GETS = /\/data\/[^/]+\.lance$/;
const MANIFEST_GETS = /\/_versions\/[^/]+\.manifest$/;

let s3: FaultProxy;

beforeAll(async () => {
  requireBuiltCli();
  s3 = await startFaultProxy(await startS3Server());
});

afterAll(async () => {
  await s3?.stop();
});

/** A table of rows r0, r1 (fragment 0) and r2 (fragment 1) on `store`; its URI. */
async function twoFragments(store: FaultProxy, name: string): Promise<string> {
  const uri = `${store.root}/faults/${name}.lance`;
  const table = await write(uri, [storeRow(0), storeRow(1)], { storageOptions: store.storageOptions });
  await append(table, [storeRow(2)]);
  return uri;
}

/** A table of one row, r0, on `store` (a transient fault costs the store client's back-off per request); its URI. */
async function oneRow(store: FaultProxy, name: string): Promise<string> {
  const uri = `${store.root}/faults/${name}.lance`;
  await write(uri, [storeRow(0)], { storageOptions: store.storageOptions });
  return uri;
}

/** The ids of the table's rows read with no fault injected, each with its copies. */
async function idsAfter(store: FaultProxy, uri: string): Promise<Record<string, number>> {
  store.inject([]);
  const rows = await rowsById(await open(uri, { storageOptions: store.storageOptions }), { types: false });
  return Object.fromEntries([...rows].map(([id, copies]) => [id, copies.length]));
}

/** `lance-nd check <uri> --repair` through the built command, with the store's options as flags. */
async function repairCommand(store: FaultProxy, uri: string) {
  const flags = Object.entries({ ...store.storageOptions, ...RETRIES }).flatMap(([k, v]) => [
    "--storage-option",
    `${k}=${v}`,
  ]);
  return startCli(["check", uri, "--repair", ...flags]).exited;
}

describe("check --repair on s3rver behind a fault-injecting proxy", () => {
  for (const status of [403, 401] as const) {
    it(`${status} on the data objects: exit 1 naming each object, access refused (not damage), every row kept`, async () => {
      const uri = await twoFragments(s3, `refused-${status}`);
      s3.inject([{ status, path: DATA_GETS, method: "GET" }]);
      const run = await repairCommand(s3, uri);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain("could not be checked whole");
      expect(run.stderr).toContain("nothing was removed");
      expect(run.stderr).toContain("make them readable to this user");
      expect(run.stderr.trim().split("\n")).toHaveLength(1);

      const report = await check(uri, { storageOptions: { ...s3.storageOptions, ...RETRIES }, repair: true });
      expect(report.unreadableRows).toEqual([]);
      expect(report.inaccessibleFiles).toHaveLength(3);
      for (const file of report.inaccessibleFiles) {
        expect(file).toMatchObject({ kind: "data", failure: "inaccessible" });
        expect(file.path).toMatch(new RegExp(`^${uri}/data/[^/]+\\.lance$`));
      }
      expect(report.repair?.deletedRows).toEqual([]);
      expect(await idsAfter(s3, uri)).toEqual({ r0: 1, r1: 1, r2: 1 });
      count("rowsVerified", 3);
    });
  }

  const transient: Array<[string, StoreFault]> = [
    ["503 SlowDown", { status: 503, path: DATA_GETS, method: "GET" }],
    ["a reset connection", { reset: true, path: DATA_GETS, method: "GET" }],
  ];
  for (const [what, fault] of transient) {
    it(`${what} on the data objects: transient, not damage, every row kept by check --repair`, async () => {
      const uri = await oneRow(s3, `transient-${"status" in fault ? fault.status : "reset"}`);
      s3.inject([fault]);
      const report = await check(uri, { storageOptions: { ...s3.storageOptions, ...RETRIES }, repair: true });
      expect(report.unreadableRows).toEqual([]);
      expect(report.inaccessibleFiles).toEqual([
        expect.objectContaining({
          kind: "data",
          failure: "transient",
          path: expect.stringMatching(/\/data\/.+\.lance$/),
        }),
      ]);
      expect(report.repair?.deletedRows).toEqual([]);
      expect(await idsAfter(s3, uri)).toEqual({ r0: 1 });
      count("rowsVerified", 1);
    });
  }

  it("503 on the latest manifest: `check --repair` could not check (not 'no version opens'), exit 1, nothing removed", async () => {
    const uri = await oneRow(s3, "manifest-503");
    s3.inject([{ status: 503, path: MANIFEST_GETS, method: "GET" }]);
    const run = await repairCommand(s3, uri);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("could not be checked whole: 1 file that could not be read (not damage)");
    expect(run.stderr).toContain("check again later");
    expect(run.stderr).not.toContain("no version opens");
    expect(await idsAfter(s3, uri)).toEqual({ r0: 1 });
  });

  it("403 on the latest manifest: access refused, the manifest named, nothing removed", async () => {
    const uri = await twoFragments(s3, "manifest-403");
    s3.inject([{ status: 403, path: MANIFEST_GETS, method: "GET" }]);
    const report = await check(uri, { storageOptions: { ...s3.storageOptions, ...RETRIES }, repair: true });
    expect(report.inaccessibleFiles).toEqual([
      expect.objectContaining({
        kind: "manifest",
        failure: "inaccessible",
        path: expect.stringContaining(`${uri}/_versions/`),
      }),
    ]);
    expect(await idsAfter(s3, uri)).toEqual({ r0: 1, r1: 1, r2: 1 });
  });

  it("a slow store (every data object answered 300 ms late): not a fault; check reads every row, ok", async () => {
    const uri = await twoFragments(s3, "slow");
    s3.inject([{ delayMs: 300, path: DATA_GETS, method: "GET" }]);
    const report = await check(uri, { storageOptions: { ...s3.storageOptions, ...RETRIES } });
    expect(report).toMatchObject({ ok: true, rows: 3, unreadableRows: [], inaccessibleFiles: [] });
    expect(s3.faulted.some((f) => f.endsWith("delayed 300 ms"))).toBe(true);
    count("rowsVerified", 3);
  });

  it("404 on the data objects the manifest names: damage (unreadable rows), not an access problem", async () => {
    const uri = await twoFragments(s3, "missing-404");
    s3.inject([{ status: 404, path: DATA_GETS, method: "GET" }]);
    const damaged = await check(uri, { storageOptions: { ...s3.storageOptions, ...RETRIES } });
    expect(damaged.inaccessibleFiles).toEqual([]);
    expect(damaged.unreadableRows.map((r) => r.fragment)).toEqual([0, 0, 1]);
    count("badInputs");
  });
});

describe("check on Azurite behind a fault-injecting proxy", () => {
  it("403 on the data blobs: access refused, exit 1, every row kept", async () => {
    const azure = await startFaultProxy(await startAzurite());
    try {
      const uri = await twoFragments(azure, "refused-403");
      azure.inject([{ status: 403, path: DATA_GETS, method: "GET" }]);
      const run = await repairCommand(azure, uri);
      expect(run.code, run.stderr).toBe(1);
      expect(run.stderr).toContain("could not be checked whole");
      azure.inject([{ status: 403, path: DATA_GETS, method: "GET" }]);
      const report = await check(uri, { storageOptions: { ...azure.storageOptions, ...RETRIES } });
      expect(report.unreadableRows).toEqual([]);
      expect(report.inaccessibleFiles.map((f) => f.failure)).toEqual(["inaccessible", "inaccessible", "inaccessible"]);
      expect(await idsAfter(azure, uri)).toEqual({ r0: 1, r1: 1, r2: 1 });
      count("rowsVerified", 3);
    } finally {
      await azure.stop();
    }
  });
});
