/** The parallelism policy of a writer's Lance adds (README, "Parallel adds"). */
import { DEFAULT_WRITE_PARALLELISM, type ParsedWriteOptions } from "./write-options.js";

/**
 * How many Lance adds a writer keeps in flight at `uri` (README, "Parallel
 * adds"): 1 on memory:// (its one connection cannot tell its adds' versions
 * apart, and the commit ledger needs them); else `writeParallelism` when
 * given; else 4 on local disk and on object stores with `conditionalPut`,
 * and 1 on other object stores (a store without conditional PUT lets two
 * concurrent commits of one version overwrite each other's manifest: the
 * reliability suite lost a row that way).
 */
export function addParallelism(uri: string, options: ParsedWriteOptions): number {
  if (uri.startsWith("memory://")) return 1;
  if (options.writeParallelism !== undefined) return options.writeParallelism;
  const objectStore = /^[a-z][a-z0-9+.-]*:\/\//i.test(uri) && !/^file:/i.test(uri);
  return objectStore && !options.conditionalPut ? 1 : DEFAULT_WRITE_PARALLELISM;
}
