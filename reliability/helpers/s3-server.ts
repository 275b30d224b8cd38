// An S3-compatible server (npm s3rver) on the loopback interface, for the
// object store tests. Local servers have no conditional PUT, so only one
// writer at a time may use a table there.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";

/** A running server: its bucket, the lance-nd `storageOptions` to reach it, and `stop`. */
export interface S3Server {
  bucket: string;
  storageOptions: Record<string, string>;
  stop(): Promise<void>;
}

/** Starts s3rver on 127.0.0.1 (a free port) with one empty bucket, storing its objects in a temp folder. */
export async function startS3Server(bucket = "reliability"): Promise<S3Server> {
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
  return {
    bucket,
    storageOptions: {
      endpoint: `http://127.0.0.1:${port}`,
      allow_http: "true",
      region: "us-east-1",
      aws_access_key_id: "S3RVER",
      aws_secret_access_key: "S3RVER",
    },
    async stop() {
      await server.close();
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
