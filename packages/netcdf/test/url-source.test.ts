/**
 * netCDF files at http:// URLs (README "Files at URLs"), served by a
 * local server (`startFileServer`) from the ncgen-made ocean files: every
 * variable reads as from disk; a classic file's selection fetches its
 * header and the bytes it touches, not the file; a netCDF-4 file goes
 * through a temporary copy that `close` removes; a whole file cut short is
 * not kept, and the next read asks again; a 404 names the URL.
 */
import { mkdtempSync, readdirSync, rmSync, statSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type FileServer, runTool, startFileServer } from "@lance-nd/test-helpers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isNetcdfError, openNetcdf, openUrlSource } from "../src/index.js";
import { FIXTURE_DIR, ensureFixtures, fixture, fixtureSkipReason } from "./fixtures.js";

const skip = fixtureSkipReason() !== undefined;
let server: FileServer;
let plain: FileServer;
let big: FileServer;
let bigDir: string;

// A classic file of 50 records of 40 x 50 floats (400 KB of fill values): big enough to tell a record from the file.
const BIG_CDL = `netcdf big {
dimensions:
  time = UNLIMITED ;
  lat = 40 ;
  lon = 50 ;
variables:
  float sst(time, lat, lon) ;
data:
  sst = ${Array.from({ length: 50 * 40 * 50 }, (_, i) => i % 997).join(", ")} ;
}
`;

beforeAll(async () => {
  if (skip) return;
  ensureFixtures();
  server = await startFileServer(FIXTURE_DIR);
  plain = await startFileServer(FIXTURE_DIR, { ignoreRange: true });
  bigDir = mkdtempSync(join(tmpdir(), "lance-nd-netcdf-url-"));
  writeFileSync(join(bigDir, "big.cdl"), BIG_CDL);
  runTool("ncgen", ["-k", "classic", "-o", join(bigDir, "big.nc"), join(bigDir, "big.cdl")]);
  big = await startFileServer(bigDir);
});
afterAll(async () => {
  await server?.stop();
  await plain?.stop();
  await big?.stop();
  if (bigDir !== undefined) rmSync(bigDir, { recursive: true, force: true });
});

/** Every variable of the file at `url`, as the file on disk reads it. */
async function expectSameAsDisk(url: string, name: "ocean-classic.nc" | "ocean-nc4.nc"): Promise<void> {
  const remote = await openNetcdf(url);
  const local = await openNetcdf(fixture(name));
  try {
    expect(remote.variables.map((v) => v.name)).toEqual(local.variables.map((v) => v.name));
    for (const v of local.variables) {
      const [got, want] = [await remote.read(v.name), await local.read(v.name)];
      expect(got.dims, v.name).toEqual(want.dims);
      expect(Array.from(got.values as Iterable<unknown>), v.name).toEqual(Array.from(want.values as Iterable<unknown>));
    }
  } finally {
    await remote.close();
    await local.close();
  }
}

/**
 * The names of the files made in `folder` while `work` ran (each once),
 * from the folder's change events: a last file made after `work` marks
 * the end of its events, which arrive in order.
 */
async function namesMadeIn(folder: string, work: () => Promise<void>): Promise<string[]> {
  const end = `end-${process.pid}-${Date.now()}`;
  const seen = new Set<string>();
  let ended: () => void = () => {};
  const endSeen = new Promise<void>((resolve) => {
    ended = resolve;
  });
  const watcher = watch(folder, (_event, name) => {
    if (name === end) ended();
    else if (name !== null) seen.add(name);
  });
  try {
    await work();
    writeFileSync(join(folder, end), "");
    await endSeen;
  } finally {
    watcher.close();
    rmSync(join(folder, end), { force: true });
  }
  return [...seen];
}

/** The temporary copies of netCDF-4 files in the system's temporary folder. */
const copies = () => readdirSync(tmpdir()).filter((f) => /^lance-nd-[0-9a-f-]{36}\.nc$/.test(f));

describe.skipIf(skip)("openNetcdf of a file at an http:// URL", () => {
  it("a classic file: every variable as from disk", async () => {
    await expectSameAsDisk(`${server.url}/ocean-classic.nc`, "ocean-classic.nc");
  });

  it("a classic file: reading one record fetches that record's bytes, not the file", async () => {
    const file = await openNetcdf(`${big.url}/big.nc`);
    big.reset();
    const step = await file.read("sst", { time: 7 });
    await file.close();
    expect(Array.from(step.values as Iterable<number>).slice(0, 3)).toEqual(
      [7 * 2000, 7 * 2000 + 1, 7 * 2000 + 2].map((i) => i % 997),
    );
    const fetched = big.requests.reduce((n, r) => n + r.bytes, 0);
    const record = 40 * 50 * 4;
    expect(fetched).toBeGreaterThanOrEqual(record);
    expect(fetched).toBeLessThan(2 * record);
    expect(statSync(join(bigDir, "big.nc")).size).toBeGreaterThan(40 * record);
  });

  it("a classic file from a server that ignores Range: every variable as from disk, the file fetched once and its copy removed", async () => {
    const before = copies();
    plain.reset();
    await expectSameAsDisk(`${plain.url}/ocean-classic.nc`, "ocean-classic.nc");
    const gets = plain.requests.filter((r) => r.method === "GET");
    expect(gets.map((r) => r.status)).toEqual([200]);
    expect(copies()).toEqual(before);
  });

  it("a netCDF-4 file: every variable as from disk, through a temporary copy that close removes", async () => {
    const before = copies();
    await expectSameAsDisk(`${server.url}/ocean-nc4.nc`, "ocean-nc4.nc");
    expect(copies()).toEqual(before);
  });

  it("a netCDF-4 file from a server that ignores Range: fetched once, kept in one temporary file (not copied again) that close removes", async () => {
    const before = copies();
    plain.reset();
    const made = await namesMadeIn(tmpdir(), async () => {
      const file = await openNetcdf(`${plain.url}/ocean-nc4.nc`);
      await file.close();
    });
    expect(made.filter((name) => /^lance-nd-[0-9a-f-]{36}\.nc$/.test(name))).toHaveLength(1);
    expect(plain.requests.filter((r) => r.method === "GET").map((r) => r.status)).toEqual([200]);
    expect(copies()).toEqual(before);
    await expectSameAsDisk(`${plain.url}/ocean-nc4.nc`, "ocean-nc4.nc");
    expect(copies()).toEqual(before);
  });

  it("a server that ignores Range drops the connection halfway through the whole file: InvalidFile naming the URL, no temporary file left, the next read asks again", async () => {
    const before = copies();
    const url = `${plain.url}/ocean-classic.nc`;
    plain.reset();
    plain.inject([{ path: /ocean-classic\.nc$/, drop: true, times: 2 }]); // the HEAD, then the first GET
    try {
      const source = await openUrlSource(url);
      const err = await source.read(0, 4).catch((e: unknown) => e);
      expect(isNetcdfError(err, "InvalidFile")).toBe(true);
      expect((err as Error).message).toContain(`${url}: cannot keep the whole file the server sent (terminated)`);
      expect(copies()).toEqual(before);
      expect(Array.from(await source.read(0, 4))).toEqual([0x43, 0x44, 0x46, 0x01]);
      expect(plain.requests.filter((r) => r.method === "GET").map((r) => r.status)).toEqual([200, 200]);
      await source.close();
      expect(copies()).toEqual(before);
    } finally {
      plain.inject([]);
    }
  });

  it("no file at the URL: FileNotFound naming it", async () => {
    const err = await openNetcdf(`${server.url}/missing.nc`).catch((e: unknown) => e);
    expect(isNetcdfError(err, "FileNotFound")).toBe(true);
    expect((err as Error).message).toContain(`${server.url}/missing.nc: no such file (HTTP 404)`);
  });
});
