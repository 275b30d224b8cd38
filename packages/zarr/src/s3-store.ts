/**
 * A store at an `s3://bucket/path` URL (README "Stores elsewhere"): its
 * keys fetched over the bucket's HTTP endpoint with requests signed by
 * aws4fetch (AWS Signature V4), through the same request policy as any
 * URL (remote-requests.ts). Credentials and endpoint come from `storage`
 * (the keys of lance-nd's storage options) or the `AWS_*` environment.
 */
import { AwsClient } from "aws4fetch";
import type { RequestOptions } from "./remote-requests.js";
import { ZarrError } from "./zarr-error.js";

/** Object-store options by key, as lance-nd's `storageOptions` spells them (`aws_access_key_id`, `endpoint`, `region`, ...). */
export type StorageOptions = Readonly<Record<string, string>>;

/**
 * The HTTP URL of `url` (`s3://bucket/path`) and the requests with a
 * fetch that signs them. Path-style on a given `endpoint` (MinIO, s3rver),
 * else the bucket's virtual host on AWS. `InvalidArgument` naming the URL
 * when no credentials are given.
 */
export function s3Endpoint(
  url: string,
  storage: StorageOptions,
  requests: RequestOptions,
): { httpUrl: string; requests: RequestOptions } {
  const option = (...keys: string[]) => {
    for (const key of keys) {
      const value = storage[key] ?? storage[`aws_${key}`] ?? process.env[`AWS_${key.toUpperCase()}`];
      if (value !== undefined && value !== "") return value;
    }
    return undefined;
  };
  const { host: bucket, pathname } = new URL(url);
  const accessKeyId = option("access_key_id");
  const secretAccessKey = option("secret_access_key");
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new ZarrError(
      "InvalidArgument",
      "no S3 credentials: give aws_access_key_id and aws_secret_access_key (storage options or the AWS_* environment)",
      { path: url },
    );
  }
  const region = option("region", "default_region") ?? "us-east-1";
  const endpoint = option("endpoint", "endpoint_url")?.replace(/\/+$/, "");
  const client = new AwsClient({
    accessKeyId,
    secretAccessKey,
    sessionToken: option("session_token"),
    service: "s3",
    region,
    retries: 0, // the request policy retries (remote-requests.ts)
  });
  const send = requests.fetch ?? ((request: Request) => fetch(request));
  const httpUrl =
    endpoint === undefined
      ? `https://${bucket}.s3.${region}.amazonaws.com${pathname}`
      : `${endpoint}/${bucket}${pathname}`;
  return { httpUrl, requests: { ...requests, fetch: async (request) => send(await client.sign(request)) } };
}
