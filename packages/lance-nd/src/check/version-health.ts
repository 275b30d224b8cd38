/**
 * Which versions of a table open (README, "check"): every manifest of a
 * local table straight from `_versions/`, so versions before a broken latest
 * manifest are reached; on an object store through the SDK, which needs the
 * latest manifest.
 */
import * as path from "node:path";
import { isLanceNdError, type LanceNdError } from "../errors.js";
import { openTable, type LanceTable, type StorageOptions } from "../lance/table-open.js";
import { checkoutVersion, listVersions } from "../lance/table-versions.js";
import { manifestFiles, openVersionView } from "../lance/version-files.js";
import { environmentFailure, failedObject } from "./environment-errors.js";
import type { InaccessibleFile } from "./file-probe.js";

/** One version of the table: whether its manifest opens. */
export interface VersionHealth {
  /** The version number. */
  version: number;
  /** True when the SDK opens its manifest. */
  readable: boolean;
  /** Why it does not open. */
  error?: string;
  /** The manifest file in `_versions/` (local tables). */
  file?: string;
}

/**
 * Every manifest of a local table, newest first, each opened on its own. A
 * manifest (or the `_versions/` folder) this process may not read is not a
 * version that does not open: it goes to `unreached` with the system's
 * error, and is left out of the list.
 */
export async function localVersions(
  uri: string,
  folder: string,
  unreached: InaccessibleFile[],
): Promise<VersionHealth[]> {
  let manifests: ReturnType<typeof manifestFiles>;
  try {
    manifests = manifestFiles(uri, folder);
  } catch (err) {
    if (!noteSystemError(unreached, path.join(folder, "_versions"), err)) throw err;
    return [];
  }
  const out: VersionHealth[] = [];
  for (const manifest of manifests) {
    try {
      (await openVersionView(uri, folder, manifest)).close();
      out.push({ version: manifest.version, readable: true, file: manifest.file });
    } catch (err) {
      if (noteSystemError(unreached, path.join(folder, "_versions", manifest.file), err)) continue;
      if (!isLanceNdError(err)) throw err;
      out.push({ version: manifest.version, readable: false, error: withoutPlace(err, uri), file: manifest.file });
    }
  }
  return out;
}

/**
 * Adds `file` to `unreached` when `err` is a system error of reading it
 * (EACCES, EIO...: Node's, or Lance's `os error 13`); false for any other
 * error.
 */
function noteSystemError(unreached: InaccessibleFile[], file: string, err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  const cause = (err as Error).message;
  const system = typeof code === "string" && /^E[A-Z]+$/.test(code) && code !== "ENOENT";
  const failure = environmentFailure(cause);
  if (!system && !(isLanceNdError(err) && failure !== undefined)) return false;
  unreached.push({ path: file, kind: "manifest", cause, failure: failure ?? "inaccessible" });
  return true;
}

/**
 * The versions the SDK lists, newest first, each checked out; none (and a
 * note) when the latest manifest does not open. A manifest the store
 * refuses (401, 403) or fails to give (5xx, throttling, a dropped
 * connection; tried {@link OPEN_ATTEMPTS} times) is not a version that does
 * not open: it goes to `unreached`, and is left out of the list.
 */
export async function remoteVersions(
  uri: string,
  storage: StorageOptions,
  notes: string[],
  unreached: InaccessibleFile[],
): Promise<VersionHealth[]> {
  let table: LanceTable;
  try {
    table = await openLatest(uri, storage);
  } catch (err) {
    if (!isLanceNdError(err) || err.code === "TableNotFound") throw err;
    const message = withoutPlace(err, uri);
    if (noteUnreached(unreached, uri, message, `${uri}/_versions`)) {
      notes.push(
        "the latest manifest could not be read from the store (not damage): no version, file or row was checked and nothing was removed",
      );
    } else {
      notes.push(
        `the latest manifest does not open (${err.message}); on an object store older versions are reached only through it`,
      );
    }
    return [];
  }
  try {
    const out: VersionHealth[] = [];
    for (const { version } of (await listVersions(table)).reverse()) {
      try {
        (await checkoutVersion(table, version)).sdk.close();
        out.push({ version, readable: true });
      } catch (err) {
        if (!isLanceNdError(err)) throw err;
        const message = withoutPlace(err, uri);
        if (!noteUnreached(unreached, uri, message, `${uri}/_versions (version ${version})`))
          out.push({ version, readable: false, error: message });
      }
    }
    return out;
  } finally {
    table.sdk.close();
  }
}

/** Opens of the latest version tried when the store fails for a moment (the store client retries each request too). */
const OPEN_ATTEMPTS = 3;

/** Opens the table, again while the store's failure is transient. */
async function openLatest(uri: string, storage: StorageOptions): Promise<LanceTable> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await openTable(uri, storage);
    } catch (err) {
      const transient = isLanceNdError(err) && environmentFailure(err.message) === "transient";
      if (!transient || attempt === OPEN_ATTEMPTS) throw err;
    }
  }
}

/** Adds a manifest the store did not give to `unreached`; false when `message` speaks of the bytes. */
function noteUnreached(unreached: InaccessibleFile[], uri: string, message: string, fallback: string): boolean {
  const failure = environmentFailure(message);
  if (failure === undefined) return false;
  unreached.push({ path: failedObject(message, uri) ?? fallback, kind: "manifest", cause: message, failure });
  return true;
}

/** A handle on one readable version: the table itself for the latest, a view of `_versions/` for an older one (local tables). */
export async function openVersion(
  uri: string,
  storage: StorageOptions,
  folder: string | undefined,
  version: VersionHealth,
  isLatest: boolean,
): Promise<{ table: LanceTable; close(): void }> {
  if (folder !== undefined && !isLatest)
    return openVersionView(uri, folder, { version: version.version, file: version.file! });
  const latest = await openTable(uri, storage);
  return { table: latest, close: () => latest.sdk.close() };
}

/** The message of `err` without the `table "<uri>": ` the report already says. */
export function withoutPlace(err: LanceNdError, uri: string): string {
  return err.message.replace(`table "${uri}": `, "");
}
