/**
 * The paths `lance-nd serve` answers (CLI README, "serve"):
 * `/<token>/[@v<N>/ | @tag/<name>/ | @branch/<name>/]<id>/<key>`, where the
 * part after the pin is a key of the Zarr store of that pinned version.
 * Parsed from the raw request path, segment by segment, so a `..` (or its
 * percent-encoded form `%2e%2e`) is refused before anything is resolved
 * (`pathSegments` of http/guard.ts).
 */
import { BadPath, pathSegments } from "../http/guard.js";

/** Which version of the table a path reads. */
export type Pin =
  /** The version the server serves by default (`--version`, or the latest of `--branch`, pinned when first asked). */
  | { readonly kind: "default" }
  /** `@v<N>`: version N of the served branch. */
  | { readonly kind: "version"; readonly version: number }
  /** `@tag/<name>`: the version a tag names. */
  | { readonly kind: "tag"; readonly name: string }
  /** `@branch/<name>`: the latest version of a branch, pinned when first asked. */
  | { readonly kind: "branch"; readonly name: string };

/** A path taken apart: the token it carries, the pin, and the store key (undefined: the pin's own root). */
export interface Route {
  readonly token: string;
  readonly pin: Pin;
  /** `/<id>/<key in its group>` as the store names it (the id percent-encoded, the rest decoded), or undefined for `<base>[@pin/]`. */
  readonly key: string | undefined;
}

/** The token in the first segment of `path` (undefined when there is none), for the guard. */
export function pathToken(path: string): string | undefined {
  const first = path.split("/")[1];
  return first === undefined || first === "" ? undefined : first;
}

/**
 * The route of `path` (the request's path without its query). Throws
 * {@link BadPath} for bad percent-encoding, a `.` or `..` segment, an empty
 * segment inside the path, an unknown `@` pin or a bad version number.
 */
export function parseRoute(path: string): Route {
  const segments = pathSegments(path).slice(1);
  const token = segments[0] ?? "";
  let rest = segments.slice(1);
  if (rest.at(-1) === "") rest = rest.slice(0, -1); // a trailing slash names the same thing
  if (rest.some((s) => s === "")) throw new BadPath("the path has an empty segment (//)");
  const [pin, used] = parsePin(rest);
  rest = rest.slice(used);
  const [segment, ...inGroup] = rest;
  const id = segment?.startsWith(ESCAPE) ? segment.slice(ESCAPE.length) : segment;
  const key = id === undefined ? undefined : `/${[encodeURIComponent(id), ...inGroup].join("/")}`;
  return { token, pin, key };
}

/** The mark of an escaped id segment. */
const ESCAPE = "~";

/**
 * The path segment of dataset `id` (percent-encoded): an id a path could not
 * hold as it is (`""`, `.`, `..`, one starting with `@`, which reads as a
 * pin) is escaped with a leading `~`, and so is one that starts with `~`,
 * so every id is reachable and never read as a pin or a path step.
 *
 * @example
 * idSegment("sst.nc"); // "sst.nc"
 * idSegment("@v1");    // "~%40v1"
 * idSegment("..");     // "~.."
 */
export function idSegment(id: string): string {
  const escaped = id === "" || id === "." || id === ".." || id.startsWith("@") || id.startsWith(ESCAPE);
  return encodeURIComponent(escaped ? `${ESCAPE}${id}` : id);
}

function parsePin(segments: readonly string[]): [Pin, number] {
  const first = segments[0];
  if (first === undefined || !first.startsWith("@")) return [{ kind: "default" }, 0];
  if (first === "@tag" || first === "@branch") {
    const name = segments[1];
    if (name === undefined) throw new BadPath(`${first}/ needs a name: ${first}/<name>/<id>/`);
    return [first === "@tag" ? { kind: "tag", name } : { kind: "branch", name }, 2];
  }
  const version = /^@v(\d{1,15})$/.exec(first);
  if (version === null || Number(version[1]) < 1)
    throw new BadPath(`unknown pin "${first}": expected @v<N> (N >= 1), @tag/<name> or @branch/<name>`);
  return [{ kind: "version", version: Number(version[1]) }, 1];
}
