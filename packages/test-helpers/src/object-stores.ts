/**
 * Object stores on the loopback interface for the tests of tables on them:
 * an S3-compatible server (npm s3rver, run in this process) and Azure Blob
 * Storage's emulator (npm azurite, run as a child process), each on a free
 * port with an empty bucket or container, and the Lance storage options and
 * environment variables that reach it (packages/lance-nd/SDK-NOTES.md,
 * "Object stores on local servers"). Local servers have no conditional PUT,
 * so only one writer at a time may use a table there.
 */
/// <reference path="./s3rver.d.ts" />
import { type ChildProcess, spawn } from "node:child_process";
import { createHmac } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import S3rver from "s3rver";

/** A running object store: the URI root of its bucket or container, how to reach it, and `stop`. */
export interface ObjectStoreServer {
  /** The URI of the bucket or container, e.g. `s3://bucket` or `az://container` (no trailing slash). */
  root: string;
  /** The lance-nd `storageOptions` that reach the server. */
  storageOptions: Record<string, string>;
  /** The same settings as the environment variables Lance reads. */
  env: Record<string, string>;
  /** Stops the server and removes what it stored. */
  stop(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 (a free port) with one empty bucket, storing its objects in a temp folder. */
export async function startS3Server(bucket = "reliability"): Promise<ObjectStoreServer> {
  const directory = mkdtempSync(join(tmpdir(), "lance-nd-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { address, port } = await server.run();
  if (address !== "127.0.0.1") throw new Error(`s3rver listens on ${address}, not on loopback`);
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    root: `s3://${bucket}`,
    storageOptions: {
      endpoint,
      allow_http: "true",
      region: "us-east-1",
      aws_access_key_id: "S3RVER",
      aws_secret_access_key: "S3RVER",
    },
    env: {
      AWS_ENDPOINT: endpoint,
      AWS_ALLOW_HTTP: "true",
      AWS_REGION: "us-east-1",
      AWS_ACCESS_KEY_ID: "S3RVER",
      AWS_SECRET_ACCESS_KEY: "S3RVER",
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

/** The storage account every Azure Storage emulator has. */
export const AZURITE_ACCOUNT = "devstoreaccount1";
/** The published key of {@link AZURITE_ACCOUNT}. */
export const AZURITE_KEY = "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";

/**
 * Starts Azurite's blob service on 127.0.0.1 (a free port), its blobs in
 * memory, with one empty container. Waits for it to say it listens, as long
 * as that takes on a busy machine; throws when it exits or fails first.
 */
export async function startAzurite(container = "reliability"): Promise<ObjectStoreServer> {
  const main = join(dirname(createRequire(import.meta.url).resolve("azurite/package.json")), "dist/src/blob/main.js");
  const child = spawn(
    process.execPath,
    [main, "--silent", "--inMemoryPersistence", "--blobHost", "127.0.0.1", "--blobPort", "0", "--skipApiVersionCheck"],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  // A test process that ends without stop() (a killed worker) takes the emulator with it.
  const orphan = (): void => {
    child.kill("SIGKILL");
  };
  process.once("exit", orphan);
  child.once("exit", () => process.off("exit", orphan));
  try {
    const url = await listening(child);
    const endpoint = `${url}/${AZURITE_ACCOUNT}`;
    await createContainer(endpoint, container);
    return {
      root: `az://${container}`,
      storageOptions: {
        azure_storage_account_name: AZURITE_ACCOUNT,
        azure_storage_account_key: AZURITE_KEY,
        azure_storage_endpoint: endpoint,
        allow_http: "true",
      },
      env: {
        AZURE_STORAGE_ACCOUNT_NAME: AZURITE_ACCOUNT,
        AZURE_STORAGE_ACCOUNT_KEY: AZURITE_KEY,
        AZURE_STORAGE_ENDPOINT: endpoint,
        AZURE_ALLOW_HTTP: "true",
      },
      stop: () => stopChild(child),
    };
  } catch (err) {
    await stopChild(child);
    throw err;
  }
}

/** The address Azurite prints once it listens ("... successfully listens on http://127.0.0.1:N"). */
function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let output = "";
    function fail(why: string): void {
      reject(new Error(`${why}: ${output.trim()}`));
    }
    const read = (chunk: Buffer): void => {
      output += chunk.toString("utf8");
      const found = /successfully listens on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (found === null) return;
      resolve(found[1]!);
    };
    child.stdout!.on("data", read);
    child.stderr!.on("data", read);
    child.on("error", (err) => fail(err.message));
    child.on("exit", (code) => fail(`Azurite exited with ${code}`));
  });
}

/**
 * Creates `name` through the Blob service's REST API (Create Container),
 * signed with the account's key (Shared Key authorization): Lance never
 * creates containers.
 */
async function createContainer(endpoint: string, name: string): Promise<void> {
  const headers = { "x-ms-date": new Date().toUTCString(), "x-ms-version": "2021-08-06" };
  // The string to sign: the verb, eleven empty standard headers, the x-ms- headers, then the resource.
  const signed = [
    "PUT",
    ...Array<string>(11).fill(""),
    ...Object.entries(headers).map(([key, value]) => `${key}:${value}`),
    `/${AZURITE_ACCOUNT}${new URL(endpoint).pathname}/${name}\nrestype:container`,
  ].join("\n");
  const signature = createHmac("sha256", Buffer.from(AZURITE_KEY, "base64")).update(signed, "utf8").digest("base64");
  const response = await fetch(`${endpoint}/${name}?restype=container`, {
    method: "PUT",
    headers: { ...headers, authorization: `SharedKey ${AZURITE_ACCOUNT}:${signature}` },
  });
  if (response.status !== 201)
    throw new Error(`cannot create container ${name}: ${response.status} ${await response.text()}`);
}

/** Ends the emulator at once: its blobs are in memory, meant to go with it. */
function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGKILL");
  });
}
