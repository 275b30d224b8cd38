/**
 * The one retry policy of lance-nd's commits (README.md, "Commits with this
 * SDK"). An operation (one add of a writer, a widen, a schema change) gets
 * at most {@link MAX_COMMIT_ATTEMPTS} attempts in all: the retries of the
 * steps nested inside it (the schema change an add makes first, the cast a
 * widen makes) draw on the same budget, so nesting never multiplies the
 * bound (it used to be 10 x 10 x 10 attempts).
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** At most this many attempts of one operation, counting the attempts of every step nested in it. */
const MAX_COMMIT_ATTEMPTS = 10;

/** What the operation may still spend: failed attempts left before it gives up. */
interface Budget {
  retriesLeft: number;
}

const activeBudget = new AsyncLocalStorage<Budget>();

/** When to try a failed attempt again, and what to do first. */
export interface RetryPolicy {
  /** True when the same attempt may succeed on the latest version (a retryable conflict, a schema another writer changed). */
  retryable(err: unknown): boolean | Promise<boolean>;
  /** Runs before the next attempt, e.g. moves the handle to the latest version. */
  beforeRetry?(): Promise<void>;
}

/**
 * Runs `attempt` until it succeeds, trying again while `policy` says the
 * error is retryable and the operation's budget lasts. Called inside another
 * `withCommitRetries`, it spends the outer operation's budget.
 *
 * @throws the last attempt's error when it is not retryable or the budget is spent.
 */
export async function withCommitRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  const budget = activeBudget.getStore() ?? { retriesLeft: MAX_COMMIT_ATTEMPTS - 1 };
  return activeBudget.run(budget, async () => {
    for (;;) {
      try {
        return await attempt();
      } catch (err) {
        if (budget.retriesLeft <= 0 || !(await policy.retryable(err))) throw err;
        budget.retriesLeft--;
        await policy.beforeRetry?.();
      }
    }
  });
}
