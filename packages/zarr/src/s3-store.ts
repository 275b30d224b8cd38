/**
 * A store at an `s3://bucket/path` URL (README "Stores elsewhere"): its
 * keys fetched over the bucket's HTTP endpoint with requests signed by
 * aws4fetch (AWS Signature V4), through the same request policy as any
 * URL (remote-requests.ts). Credentials and endpoint come from `storage`
 * (the keys of lance-nd's storage options) or the `AWS_*` environment.
 * gcs-store.ts reads `gs://` through the same signing.
 */
import { AwsClient } from "aws4fetch";
import type { RequestOptions } from "./remote-requests.js";
import { ZarrError } from "./zarr-error.js";

/** Object-store options by key, as lance-nd's `storageOptions` spells them (`aws_access_key_id`, `endpoint`, `region`, ...). */
export type StorageOptions = Readonly<Record<string, string>>;

/** A store's HTTP URL and the requests with a fetch that signs them. */
export interface SignedEndpoint {
  httpUrl: string;
  requests: RequestOptions;
}

/** What signs requests to an S3-compatible endpoint. */
export interface S3Credentials {
  accessKeyId: string;
  secretAccessKey: string;
  sessionToken?: string | undefined;
  region: string;
  /** The server, path-style (`http://host:port`); undefined for the bucket's virtual host on AWS. */
  endpoint?: string | undefined;
}

/**
 * The HTTP URL of `url` (`s3://bucket/path`) and the requests with a
 * fetch that signs them. Path-style on a given `endpoint` (MinIO, s3rver),
 * else the bucket's virtual host on AWS. `InvalidArgument` naming the URL
 * when no credentials are given.
 */
export function s3Endpoint(url: string, storage: StorageOptions, requests: RequestOptions): SignedEndpoint {
  const option = (...keys: string[]) => {
    for (const key of keys) {
      const value = storage[key] ?? storage[`aws_${key}`] ?? process.env[`AWS_${key.toUpperCase()}`];
      if (value !== undefined && value !== "") return value;
    }
    return undefined;
  };
  const accessKeyId = option("access_key_id");
  const secretAccessKey = option("secret_access_key");
  if (accessKeyId === undefined || secretAccessKey === undefined) {
    throw new ZarrError(
      "InvalidArgument",
      "no S3 credentials: give aws_access_key_id and aws_secret_access_key (storage options or the AWS_* environment)",
      { path: url },
    );
  }
  return signedEndpoint(
    url,
    {
      accessKeyId,
      secretAccessKey,
      sessionToken: option("session_token"),
      region: option("region", "default_region") ?? "us-east-1",
      endpoint: option("endpoint", "endpoint_url"),
    },
    requests,
  );
}

/**
 * The HTTP URL of `url` (`scheme://bucket/path`) on an S3-compatible
 * endpoint and the requests with a fetch that signs them with `credentials`.
 */
export function signedEndpoint(url: string, credentials: S3Credentials, requests: RequestOptions): SignedEndpoint {
  const { host: bucket, pathname } = new URL(url);
  const { region } = credentials;
  const endpoint = credentials.endpoint?.replace(/\/+$/, "");
  const client = new AwsClient({
    accessKeyId: credentials.accessKeyId,
    secretAccessKey: credentials.secretAccessKey,
    sessionToken: credentials.sessionToken,
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
