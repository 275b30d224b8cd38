/**
 * Lance's errors come back as strings (SDK-NOTES.md, section 8): the ones
 * that say the environment failed rather than the bytes. `check` never
 * counts such an error as damage (README, "check"). On an object store the
 * HTTP status decides (README, "Guarantees", object-store faults): 401 and
 * 403 are an access refused, 5xx, 429, throttling and a dropped or
 * refused connection are transient; a 404 is the caller's to judge (damage
 * only when the manifest names the object).
 */

/** Why the environment failed: access refused, or a failure that may pass. */
export type EnvironmentFailure = "inaccessible" | "transient";

// os error 1 EPERM, 13 EACCES; S3 AccessDenied / InvalidAccessKeyId, Azure AuthorizationFailure and kin.
const INACCESSIBLE =
  /os error (1|13)\b|permission denied|lacked the necessary privileges|\b(401|403) (Unauthorized|Forbidden)\b|AccessDenied|InvalidAccessKeyId|SignatureDoesNotMatch|Authorization\w*(Failure|Mismatch)|NoAuthenticationInformation/i;

// os error 4 EINTR, 5 EIO, 11 EAGAIN, 23 ENFILE, 24 EMFILE, 104 ECONNRESET, 110 ETIMEDOUT, 111 ECONNREFUSED.
const TRANSIENT =
  /os error (4|5|11|23|24|104|110|111)\b|too many open files|\b(429|5\d\d) [A-Z][a-z]|throttl|slow ?down|ServerBusy|InternalError|too many requests|timed out|operation timeout|connection (reset|refused|closed)|error sending request|broken pipe|service unavailable/i;

/** How the environment failed according to a reader's error message; `undefined` when the message speaks of the bytes. */
export function environmentFailure(message: string): EnvironmentFailure | undefined {
  if (INACCESSIBLE.test(message)) return "inaccessible";
  if (TRANSIENT.test(message)) return "transient";
  return undefined;
}

/** True when a reader's error message says the environment failed, not the bytes. */
export function isEnvironmentError(message: string): boolean {
  return environmentFailure(message) !== undefined;
}

/**
 * The object of the table at `uri` that an object-store error names (the
 * URL of its failed request, or Lance's `for path …`), as a URI under
 * `uri`; `undefined` when it names none.
 */
export function failedObject(message: string, uri: string): string | undefined {
  const key = uri.replace(/^[a-z0-9]+:\/\/[^/]+\//i, "");
  if (key === uri) return undefined;
  const request = /\b(?:GET|HEAD|PUT|POST|DELETE) (https?:\/\/\S+)/.exec(message)?.[1];
  const place = request === undefined ? /for path (\S+?):? /.exec(message)?.[1] : new URL(request).pathname;
  const at = place === undefined ? -1 : decodeURIComponent(place).indexOf(`${key}/`);
  if (at < 0) return undefined;
  return `${uri}/${decodeURIComponent(place!).slice(at + key.length + 1)}`;
}
