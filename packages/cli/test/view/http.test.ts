/**
 * `lance-nd view` over HTTP: what it serves, what it refuses (foreign Host
 * or Origin, no token: 403) and the 4xx JSON errors of bad requests, against
 * the built command serving real tables.
 */
import { join } from "node:path";
import { tableFromIPC } from "apache-arrow";
import { attr, decode } from "@lance-nd/nd-arrow";
import type { AttrInput, NdRecordBatch } from "@lance-nd/nd-arrow";
import { append, write } from "lance-nd";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { oceanDemo } from "../../src/demo-data.js";
import { cli, ensureBuilt, tempDir } from "../commands/harness.js";
import { readBack, send, startViewer } from "./viewer.js";
import type { Reply, Viewer } from "./viewer.js";

let dir: string;
let demo: string;
let ids: string;
let viewer: Viewer;
let idsViewer: Viewer;

/** The demo dataset with a given `id` and seed, small. */
function dataset(id: string, seed: number): NdRecordBatch {
  const batch = oceanDemo({ times: 3, lat: 12, lon: 24, seed });
  return batch.withGlobalAttrs(new Map<string, AttrInput>([...batch.globalAttrs, ["id", id]]));
}

beforeAll(async () => {
  ensureBuilt();
  dir = tempDir();
  expect(cli(["demo", "--dir", dir]).code).toBe(0);
  demo = join(dir, "ocean.lance");
  ids = join(dir, "ids.lance");
  const table = await write(ids, [dataset("a", 1)], { stats: true });
  await append(table, [dataset("b", 2)]);
  [viewer, idsViewer] = await Promise.all([startViewer(demo), startViewer(ids)]);
});

afterAll(async () => {
  await Promise.all([viewer?.stop(), idsViewer?.stop()]);
});

const api = (v: Viewer, route: string, query = ""): Promise<Reply> =>
  send(v, `/api/${route}?token=${v.token}${query === "" ? "" : `&${query}`}`);

function expectError(reply: Reply, status: number, code: string, message: RegExp): void {
  expect(reply.status).toBe(status);
  expect(reply.type).toMatch(/^application\/json/);
  const body = reply.json();
  expect(body.error?.code).toBe(code);
  expect(body.error?.message).toMatch(message);
  expect(reply.body.toString()).not.toMatch(/\n\s+at |\.ts:\d+/); // never a stack trace
}

describe("the guard", () => {
  it("serves the page, its script and the API with the token and its own Host", async () => {
    const page = await send(viewer, `/?token=${viewer.token}`);
    expect(page.status).toBe(200);
    expect(page.body.toString()).toContain(`/assets/page.js?token=${viewer.token}`);
    expect(page.type).toMatch(/^text\/html/);
    const script = await send(viewer, `/assets/page.js?token=${viewer.token}`);
    expect(script.status).toBe(200);
    expect(script.body.toString()).not.toMatch(/\bnode:[a-z]/); // the codec runs without Node modules
    expect((await send(viewer, "/api/table", { "x-lance-nd-token": viewer.token })).status).toBe(200);
    expect((await send(viewer, `/api/table?token=${viewer.token}`, { host: `localhost:${viewer.port}` })).status).toBe(
      200,
    );
    expect((await send(viewer, `/api/table?token=${viewer.token}`, { origin: `http://${viewer.host}` })).status).toBe(
      200,
    );
  });

  it("refuses a request without the token or with a wrong one (403)", async () => {
    for (const path of [
      "/",
      "/assets/page.js",
      "/api/table",
      `/?token=${viewer.token.slice(1)}x`,
      "/api/table?token=",
    ]) {
      expectError(await send(viewer, path), 403, "Forbidden", /token/);
    }
  });

  it("refuses a foreign Host, as a DNS-rebinding page sends, even with the token (403)", async () => {
    for (const host of [
      `evil.example:${viewer.port}`,
      "127.0.0.1",
      `127.0.0.1:${viewer.port + 1}`,
      `localhost.evil.example:${viewer.port}`,
    ]) {
      expectError(await send(viewer, `/api/table?token=${viewer.token}`, { host }), 403, "Forbidden", /Host/);
      expectError(await send(viewer, `/?token=${viewer.token}`, { host }), 403, "Forbidden", /Host/);
    }
  });

  it("refuses an API call from another page's Origin (403)", async () => {
    for (const origin of [
      "http://evil.example",
      `http://evil.example:${viewer.port}`,
      `https://${viewer.host}`,
      "null",
    ]) {
      expectError(await send(viewer, `/api/table?token=${viewer.token}`, { origin }), 403, "Forbidden", /Origin/);
    }
  });

  it("with --host 0.0.0.0 (other machines may connect) any Host passes, still only with the token", async () => {
    const open = await startViewer(demo, ["--host", "0.0.0.0"]);
    try {
      expect(open.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${open.port}/\\?token=`));
      const host = `workstation.example:${open.port}`;
      expect((await send(open, `/api/table?token=${open.token}`, { host })).status).toBe(200);
      expectError(await send(open, "/api/table", { host }), 403, "Forbidden", /token/);
      expectError(
        await send(open, `/api/table?token=${open.token}`, { host, origin: "http://evil.example" }),
        403,
        "Forbidden",
        /Origin/,
      );
    } finally {
      await open.stop();
    }
  });

  it("is read-only and serves nothing but its page, script and API", async () => {
    expectError(
      await send(viewer, `/api/table?token=${viewer.token}`, {}, "POST"),
      405,
      "MethodNotAllowed",
      /read-only/,
    );
    expectError(
      await send(viewer, `/api/table?token=${viewer.token}`, {}, "DELETE"),
      405,
      "MethodNotAllowed",
      /read-only/,
    );
    for (const path of [
      "/../../etc/passwd",
      "/assets/../../../etc/passwd",
      "/assets/..%2f..%2fpackage.json",
      "/ocean.lance/_versions",
      "/favicon.ico",
      "/dist/main.js",
    ]) {
      expectError(await send(viewer, `${path}?token=${viewer.token}`), 404, "NotFound", /nothing at/);
    }
    expectError(await api(viewer, "nope"), 404, "NotFound", /no API route "nope"/);
  });
});

describe("the API", () => {
  it("table: format, version, rows, size, variables and the datasets, from the global attributes", async () => {
    const summary = (await api(viewer, "table")).json();
    expect(summary).toMatchObject({ formatVersion: 1, version: 1, rows: 9 });
    expect(summary.bytes).toBeGreaterThan(0);
    expect(summary.variables).toContainEqual({
      name: "sst",
      type: "Float32",
      stats: true,
      attrs: ["units", "long_name", "standard_name", "valid_range"],
    });
    // The demo's 9 rows: 3 time blocks (starts 0, 4, 8) x 3 latitude bands (0, 30, 60), one lon block.
    expect(summary.datasets).toMatchObject([{ id: null, rows: 9 }]);
    expect((summary.datasets as { globalAttrs: Record<string, unknown> }[])[0]!.globalAttrs).toMatchObject({
      Conventions: "CF-1.8",
    });
  });

  it("dataset: the dims of the assembled dataset and its variables with their range", async () => {
    const demoDataset = (await api(viewer, "dataset")).json();
    expect(demoDataset).toMatchObject({
      id: null,
      rows: 9,
      dims: [
        { name: "time", size: 12 },
        { name: "lat", size: 90 },
        { name: "lon", size: 180 },
      ],
    });
    const sst = (await readBack(demo)).get("sst")!.toArray() as Float32Array;
    let min = Infinity;
    let max = -Infinity;
    for (const v of sst) {
      if (v < min) min = v;
      if (v > max) max = v;
    }
    expect((demoDataset.variables as { name: string }[]).find((v) => v.name === "sst")).toMatchObject({
      dims: ["time", "lat", "lon"],
      min,
      max,
    });
    const b = (await api(idsViewer, "dataset", "dataset=b")).json();
    expect(b).toMatchObject({
      id: "b",
      rows: 1,
      dims: [
        { name: "time", size: 3 },
        { name: "lat", size: 12 },
        { name: "lon", size: 24 },
      ],
    });
    const bSst = dataset("b", 2).get("sst")!.toArray() as Float32Array;
    const bFinite = Array.from(bSst).filter((v) => !Number.isNaN(v));
    expect((b.variables as { name: string }[]).find((v) => v.name === "sst")).toMatchObject({
      min: Math.min(...bFinite),
      max: Math.max(...bFinite),
      attrs: { units: "degC" },
    });
    expectError(await api(idsViewer, "dataset", "dataset=zz"), 400, "InvalidArgument", /no dataset "zz"/);
  });

  it("window: the 2-D slice as Arrow IPC, equal to the table's values, in every time block of the chunked demo", async () => {
    const table = (await readBack(demo)).get("sst")!.toArray() as Float32Array;
    for (const time of [0, 3, 4, 7, 8, 11]) {
      const reply = await api(viewer, "window", `variable=sst&isel=time%3D${time}`);
      expect(reply.status).toBe(200);
      expect(reply.type).toBe("application/vnd.apache.arrow.stream");
      const [window] = tableFromIPC(reply.body).batches.flatMap((rb) => decode(rb));
      const sst = window!.get("sst")!;
      expect(sst.dims).toEqual([
        { name: "lat", size: 90 },
        { name: "lon", size: 180 },
      ]);
      expect(sst.attr("units")).toBe("degC");
      const expected = Float64Array.from(table.subarray(time * 90 * 180, (time + 1) * 90 * 180));
      expect(sst.toArray(), `time=${time}`).toEqual(expected); // NaN (land) included
    }
    // Any two dims: a time x lat window at one longitude, across all three time blocks.
    const reply = await api(viewer, "window", "variable=sst&isel=lon%3D100");
    const sst = tableFromIPC(reply.body)
      .batches.flatMap((rb) => decode(rb))[0]!
      .get("sst")!;
    expect(sst.dims).toEqual([
      { name: "time", size: 12 },
      { name: "lat", size: 90 },
    ]);
    const expected = Float64Array.from({ length: 12 * 90 }, (_, k) => table[k * 180 + 100]!);
    expect(sst.toArray()).toEqual(expected);
  });

  it("coords: the coordinate variables of a chunked dataset, assembled from its rows", async () => {
    const reply = await api(viewer, "coords", "names=time,lat,lon,sst");
    const [coords] = tableFromIPC(reply.body).batches.flatMap((rb) => decode(rb));
    expect(coords!.names()).toEqual(["time", "lat", "lon"]);
    const table = await readBack(demo);
    for (const name of ["time", "lat", "lon"])
      expect(coords!.get(name)!.toArray(), name).toEqual(table.get(name)!.toArray());
    expect(coords!.get("time")!.attr("units")).toBe("days since 2000-01-01");
  });

  it("coords: the coordinate variables of a dataset", async () => {
    const reply = await api(idsViewer, "coords", "dataset=b&names=time,lat,lon");
    const [coords] = tableFromIPC(reply.body).batches.flatMap((rb) => decode(rb));
    expect(coords!.names()).toEqual(["time", "lat", "lon"]);
    expect(coords!.get("lat")!.toArray()).toEqual(
      oceanDemo({ times: 3, lat: 12, lon: 24, seed: 2 }).get("lat")!.toArray(),
    );
  });

  it("datasets: the ids of the datasets a filter (scan --where SQL) selects", async () => {
    expect(
      (await api(idsViewer, "datasets", `where=${encodeURIComponent("__global_attrs__.id = 'b'")}`)).json(),
    ).toEqual({ ids: ["b"] });
    expect(
      (await api(idsViewer, "datasets", `where=${encodeURIComponent("`__stats__:sst`.max > 100")}`)).json(),
    ).toEqual({ ids: [] });
    const both = (await api(idsViewer, "datasets", `where=${encodeURIComponent("`__stats__:sst`.max > 0")}`)).json();
    expect(new Set(both.ids as string[])).toEqual(new Set(["a", "b"]));
  });

  it("datasets whose id is an integer (32- or 64-bit) open and show their windows", async () => {
    for (const [id, text] of [
      [attr.int32(7), "7"],
      [attr.int64(8n), "8"],
    ] as const) {
      const path = join(dir, `int-id-${text}.lance`);
      const batch = oceanDemo({ times: 2, lat: 4, lon: 6, seed: 3 });
      await write(path, [batch.withGlobalAttrs(new Map<string, AttrInput>([...batch.globalAttrs, ["id", id]]))]);
      const intViewer = await startViewer(path);
      try {
        const listed = (await api(intViewer, "table")).json();
        expect((listed.datasets as { id: string }[]).map((d) => d.id)).toEqual([text]);
        expect((await api(intViewer, "dataset", `dataset=${text}`)).json()).toMatchObject({ id: text, rows: 1 });
        expect((await api(intViewer, "window", `dataset=${text}&variable=sst&isel=time%3D1`)).status).toBe(200);
      } finally {
        await intViewer.stop();
      }
    }
  });

  it("version: an earlier version (time travel) has its own datasets", async () => {
    const latest = (await api(idsViewer, "table")).json();
    expect(latest.version).toBe(2);
    expect((latest.datasets as { id: string }[]).map((d) => d.id)).toEqual(["a", "b"]);
    expect((await api(idsViewer, "dataset", "dataset=b&version=1")).status).toBe(400);
    const first = (await api(idsViewer, "table", "version=1")).json();
    expect(first.version).toBe(1);
    expect((first.datasets as { id: string }[]).map((d) => d.id)).toEqual(["a"]);
    expectError(
      await api(idsViewer, "window", "version=1&dataset=b&variable=sst&isel=time%3D0"),
      400,
      "InvalidArgument",
      /no dataset "b"/,
    );
  });

  it("bad requests get a 400 with a JSON error naming what is wrong", async () => {
    expectError(
      await api(viewer, "window", "variable=nope&isel=time%3D0"),
      400,
      "InvalidArgument",
      /no variable "nope".*sst/,
    );
    expectError(await api(viewer, "window", "isel=time%3D0"), 400, "InvalidArgument", /"variable" is missing/);
    expectError(
      await api(viewer, "window", "variable=sst&isel=time%3D12"),
      400,
      "InvalidArgument",
      /time=12 is out of range \(0 to 11\)/,
    );
    expectError(
      await api(viewer, "window", "variable=sst&isel=time%3D-1"),
      400,
      "InvalidArgument",
      /expected an integer >= 0/,
    );
    expectError(await api(viewer, "window", "variable=sst&isel=depth%3D0"), 400, "InvalidArgument", /no dim "depth"/);
    expectError(await api(viewer, "window", "variable=sst"), 400, "InvalidArgument", /3 dims of size > 1 are left/);
    expectError(
      await api(viewer, "window", "variable=sst&isel=time%3D0,lat%3D0"),
      400,
      "InvalidArgument",
      /1 dims of size > 1 are left/,
    );
    expectError(
      await api(idsViewer, "window", "dataset=zz&variable=sst&isel=time%3D0"),
      400,
      "InvalidArgument",
      /no dataset "zz"/,
    );
    expectError(
      await api(viewer, "datasets", `where=${encodeURIComponent("nope > 1")}`),
      400,
      "InvalidInput",
      /unknown column "nope"/,
    );
    expectError(await api(viewer, "datasets", `where=${encodeURIComponent("id = = 'a'")}`), 400, "InvalidInput", /./);
    expectError(await api(viewer, "datasets"), 400, "InvalidArgument", /"where" is missing/);
    expectError(await api(viewer, "table", "version=0"), 400, "InvalidArgument", /version=0/);
    const missing = await api(viewer, "table", "version=99");
    expect(missing.status).toBe(400);
    expect(missing.json().error?.message).toMatch(/99/);
  });
});
