/**
 * The one lancedb session of the process: every connection shares its
 * caches, and its metadata cache is bounded (SDK-NOTES.md, section 28).
 * Without it each connection gets a session of its own whose metadata cache
 * keeps up to 1 GB of manifests and file metadata, and a write to a wide
 * table keeps the metadata of each version it makes: an import of GMT's
 * `dcw-gmt.nc` (2,093 columns) grew by 20-90 MiB per add.
 */
import { Session } from "@lancedb/lancedb";

/** The bytes of manifests and file metadata the session keeps (lancedb's default: 1 GB). */
export const METADATA_CACHE_BYTES = 16 * 2 ** 20;
/** The bytes of index pages the session keeps (lancedb's default: 6 GB). */
export const INDEX_CACHE_BYTES = 256 * 2 ** 20;

let session: Session | undefined;

/** The session every connection of this process uses, made at the first connection. */
export function sharedSession(): Session {
  session ??= new Session(BigInt(INDEX_CACHE_BYTES), BigInt(METADATA_CACHE_BYTES));
  return session;
}
