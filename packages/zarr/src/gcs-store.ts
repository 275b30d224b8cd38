/**
 * A store at a `gs://bucket/path` URL (README "Stores elsewhere"): read
 * through Google Cloud Storage's S3-compatible XML API
 * (`https://storage.googleapis.com`, path-style, region `auto`) with an
 * HMAC key, signed as s3-store.ts signs. Only the storage options are
 * read, never the `AWS_*` environment, so AWS credentials are not sent to
 * another cloud.
 */
import type { RequestOptions } from "./remote-requests.js";
import type { SignedEndpoint, StorageOptions } from "./s3-store.js";
import { signedEndpoint } from "./s3-store.js";
import { ZarrError } from "./zarr-error.js";

/** GCS's XML API, which answers S3-style requests signed with an HMAC key. */
const GCS_XML_ENDPOINT = "https://storage.googleapis.com";

/**
 * The HTTP URL of `url` (`gs://bucket/path`) on GCS's XML API (or the
 * `endpoint` option) and the requests with a fetch that signs them with the
 * HMAC key given as `aws_access_key_id` and `aws_secret_access_key`.
 * `InvalidArgument` naming the URL when no key is given.
 */
export function gcsEndpoint(url: string, storage: StorageOptions, requests: RequestOptions): SignedEndpoint {
  const accessKeyId = storage.aws_access_key_id ?? storage.access_key_id;
  const secretAccessKey = storage.aws_secret_access_key ?? storage.secret_access_key;
  if (!accessKeyId || !secretAccessKey) {
    throw new ZarrError(
      "InvalidArgument",
      "no GCS HMAC key: give its access ID and secret as the storage options aws_access_key_id and aws_secret_access_key",
      { path: url },
    );
  }
  return signedEndpoint(
    url,
    { accessKeyId, secretAccessKey, region: "auto", endpoint: storage.endpoint || GCS_XML_ENDPOINT },
    requests,
  );
}
