/**
 * Objects put into the bucket of an s3rver (`startS3Server`) as a store
 * elsewhere would hold them: the files of a folder, each PUT signed with
 * the server's key (AWS signature v4).
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative } from "node:path";
import { AwsClient } from "aws4fetch";
import type { ObjectStoreServer } from "./object-stores.js";

/** An object to put in a bucket: its key and its bytes. */
export interface BucketObject {
  key: string;
  bytes: Buffer;
}

/** The files below `folder` (all depths) as objects, keyed by their path relative to `root` (default: `folder`). */
export function folderObjects(folder: string, root = folder): BucketObject[] {
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => {
      const path = join(entry.parentPath, entry.name);
      return { key: relative(root, path), bytes: readFileSync(path) };
    });
}

/**
 * PUTs `objects` one after the other into the bucket of `server` (an
 * s3rver from `startS3Server`), signed for `region`; returns the HTTP
 * status each key got, in order, for the test to check.
 */
export async function putObjects(
  server: ObjectStoreServer,
  objects: readonly BucketObject[],
  region = "us-east-1",
): Promise<{ key: string; status: number }[]> {
  const { endpoint, aws_access_key_id, aws_secret_access_key } = server.storageOptions;
  const client = new AwsClient({
    accessKeyId: aws_access_key_id!,
    secretAccessKey: aws_secret_access_key!,
    service: "s3",
    region,
  });
  const bucket = server.root.slice("s3://".length);
  const statuses: { key: string; status: number }[] = [];
  for (const { key, bytes } of objects) {
    const put = await client.fetch(`${endpoint}/${bucket}/${key}`, { method: "PUT", body: bytes });
    statuses.push({ key, status: put.status });
  }
  return statuses;
}
