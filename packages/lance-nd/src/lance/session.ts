/**
 * The lancedb session of a connection: bounded caches (SDK-NOTES.md,
 * section 28). Without one, each connection gets a session whose metadata
 * cache keeps up to 1 GB of manifests and file metadata, and a write to a
 * wide table keeps the metadata of each version it makes: an import of
 * GMT's `dcw-gmt.nc` (2,093 columns) grew by 20-90 MiB per add. A table's
 * connection has its own session, so what it cached never outlives it: a
 * table opened again reads its files from storage (`check` finds an index
 * damaged after another connection cached it). The short connections that
 * commit one add each share one session, so a long write does not make a
 * session per add.
 */
import { Session } from "@lancedb/lancedb";

/** The bytes of manifests and file metadata a connection keeps (lancedb's default: 1 GB). */
const METADATA_CACHE_BYTES = 16 * 2 ** 20;
/** The bytes of index pages a connection keeps (lancedb's default: 6 GB). */
const INDEX_CACHE_BYTES = 256 * 2 ** 20;

/** A session for one connection, with the bounded caches above. */
export function connectionSession(): Session {
  return new Session(BigInt(INDEX_CACHE_BYTES), BigInt(METADATA_CACHE_BYTES));
}

let commitSession: Session | undefined;

/** The session the process's commit handles share (table-open.ts, `openCommitHandle`). */
export function commitHandleSession(): Session {
  commitSession ??= connectionSession();
  return commitSession;
}
