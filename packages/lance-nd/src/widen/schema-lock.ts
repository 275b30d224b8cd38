/**
 * In-process ordering of appends and widens of one table. lancedb commits an
 * append from a handle that has not seen a concurrent nested cast, and the
 * table then fails every read with a panic (SDK-NOTES.md, section 8;
 * reproduced by test/write/concurrency.test.ts without this lock). So within one
 * process, appends share a table's lock and a widen takes it alone. Writers
 * in other processes are not ordered by it.
 */
import type { LanceTable } from "../lance/table-open.js";

interface Waiter {
  exclusive: boolean;
  wake: () => void;
}

class ReadWriteLock {
  #readers = 0;
  #writer = false;
  readonly #queue: Waiter[] = [];

  get idle(): boolean {
    return this.#readers === 0 && !this.#writer && this.#queue.length === 0;
  }

  async acquire(exclusive: boolean): Promise<void> {
    if (this.#queue.length === 0 && this.#can(exclusive)) {
      this.#take(exclusive);
      return;
    }
    await new Promise<void>((wake) => this.#queue.push({ exclusive, wake }));
  }

  release(exclusive: boolean): void {
    if (exclusive) this.#writer = false;
    else this.#readers--;
    while (this.#queue.length > 0 && this.#can(this.#queue[0]!.exclusive)) {
      const next = this.#queue.shift()!;
      this.#take(next.exclusive);
      next.wake();
    }
  }

  #can(exclusive: boolean): boolean {
    return exclusive ? !this.#writer && this.#readers === 0 : !this.#writer;
  }

  #take(exclusive: boolean): void {
    if (exclusive) this.#writer = true;
    else this.#readers++;
  }
}

const locks = new Map<string, ReadWriteLock>();

async function withLock<T>(table: LanceTable, exclusive: boolean, work: () => Promise<T>): Promise<T> {
  const key = `${table.location.dbUri}\u0000${table.location.tableName}`;
  let lock = locks.get(key);
  if (lock === undefined) {
    lock = new ReadWriteLock();
    locks.set(key, lock);
  }
  await lock.acquire(exclusive);
  try {
    return await work();
  } finally {
    lock.release(exclusive);
    if (lock.idle) locks.delete(key);
  }
}

/** Runs an append to `table`; other appends in this process may run at the same time, a widen may not. */
export async function asAppend<T>(table: LanceTable, work: () => Promise<T>): Promise<T> {
  return withLock(table, false, work);
}

/** Runs a schema change of `table` that appends must not overlap (a cast), alone in this process. */
export async function asSchemaChange<T>(table: LanceTable, work: () => Promise<T>): Promise<T> {
  return withLock(table, true, work);
}
