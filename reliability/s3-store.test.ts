// The object store scenario through an S3-compatible server (npm s3rver)
// on 127.0.0.1: storageOptions (endpoint, allow_http, region, access keys)
// reach lancedb on every call. One writer at a time: the server has no
// conditional PUT.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NdWriter, isLanceNdError, open, write } from "lance-nd";
import { rowsById } from "./helpers/plain-rows.js";
import { storeRow, storeScenario } from "./helpers/store-scenario.js";
import { count } from "./helpers/counters.js";
import { type ObjectStoreServer, startS3Server } from "@lance-nd/test-helpers";

let server: ObjectStoreServer;

beforeAll(async () => {
  server = await startS3Server();
});

afterAll(async () => {
  await server?.stop();
});

describe("S3-compatible server on loopback", () => {
  it("write, append, NdWriter, read, filter, delete, compact, widen, checkout and restore", async () => {
    await storeScenario(`${server.root}/data/store.lance`, server.storageOptions, 1);
  });

  it("the object-store default (no writeParallelism, no conditionalPut) runs one add at a time and loses nothing", async () => {
    const uri = `${server.root}/data/default-parallelism.lance`;
    const so = { storageOptions: server.storageOptions };
    await write(uri, [storeRow(0)], so);
    const writer = await NdWriter.append(await open(uri, so), { targetFragmentBytes: 64, ...so });
    const ids: string[] = ["r0"];
    for (let i = 1; i <= 24; i++) {
      await writer.write(storeRow(i));
      ids.push(`r${i}`);
    }
    const table = await writer.finish();
    expect(new Set(writer.versions).size).toBe(writer.versions.length);
    expect(writer.versions.length).toBeGreaterThanOrEqual(12);
    const rows = await rowsById(table, { types: false });
    expect([...rows.keys()].sort()).toEqual(ids.sort());
    expect([...rows.values()].every((copies) => copies.length === 1)).toBe(true);
    count("rowsVerified", ids.length);
  });

  it("a table that does not exist: TableNotFound", async () => {
    await expect(
      open(`${server.root}/data/missing.lance`, { storageOptions: server.storageOptions }),
    ).rejects.toMatchObject({ code: "TableNotFound" });
    count("badInputs");
  });

  it("a bucket that does not exist: a typed LanceNdError, nothing written", async () => {
    const uri = `s3://no-such-bucket/data/denied.lance`;
    const err = await write(uri, [storeRow(0)], { storageOptions: server.storageOptions }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLanceNdError(err), String(err)).toBe(true);
    count("badInputs");
    await expect(open(uri, { storageOptions: server.storageOptions })).rejects.toSatisfy((e) => isLanceNdError(e));
  });

  it("an endpoint where no server listens: a typed error within the timeout, not a hang", async () => {
    const err = await open(`${server.root}/data/store.lance`, {
      storageOptions: {
        region: "us-east-1",
        aws_access_key_id: "x",
        aws_secret_access_key: "y",
        endpoint: "http://127.0.0.1:9",
        allow_http: "true",
        timeout: "5s",
      },
    }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isLanceNdError(err), String(err)).toBe(true);
    count("badInputs");
  });
});
