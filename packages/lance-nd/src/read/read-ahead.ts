/**
 * Read-ahead over an async iterable: keep asking for the next items while
 * the consumer still works on the current one.
 */

/**
 * Yields `map(item)` for each item of `source`, in order, with up to `depth`
 * further items requested (and mapped, as soon as they arrive) ahead of the
 * consumer. `map` may be async (a take of the rows an item names): its
 * results are awaited in order, so at most `depth + 1` maps run at once,
 * and the consumer holds one more. An error of `source` or `map` surfaces at
 * its item. Stopping early returns `source` (after the requests already made
 * settle).
 *
 * @example
 * for await (const rows of readAhead(scanRows(table), 2, decodeRows)) {}
 */
export async function* readAhead<T, U>(
  source: AsyncIterable<T>,
  depth: number,
  map: (item: T) => U | Promise<U>,
): AsyncGenerator<U> {
  const iterator = source[Symbol.asyncIterator]();
  const queue: Promise<IteratorResult<U, undefined>>[] = [];
  const request = (): void => {
    const next = iterator
      .next()
      .then(
        async (r): Promise<IteratorResult<U, undefined>> =>
          r.done === true ? { done: true, value: undefined } : { done: false, value: await map(r.value) },
      );
    // Handled where it is awaited; this only keeps a failed read-ahead from being reported as unhandled.
    next.catch(() => undefined);
    queue.push(next);
  };
  let finished = false;
  try {
    for (;;) {
      while (queue.length <= depth) request();
      const result = await queue.shift()!;
      if (result.done === true) {
        finished = true;
        return;
      }
      yield result.value;
    }
  } finally {
    if (!finished) await iterator.return?.(undefined);
  }
}
