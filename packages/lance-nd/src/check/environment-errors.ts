/**
 * Lance's errors come back as strings (SDK-NOTES.md, section 8): the ones
 * that say the environment failed (permission, descriptors, I/O, network,
 * throttling) rather than the bytes. `check` never counts such an error as
 * damage (README, "check").
 */

// os error 1 EPERM, 4 EINTR, 5 EIO, 11 EAGAIN, 13 EACCES, 23 ENFILE, 24 EMFILE, 104 ECONNRESET, 110 ETIMEDOUT, 111 ECONNREFUSED.
const ENVIRONMENT =
  /os error (1|4|5|11|13|23|24|104|110|111)\b|permission denied|too many open files|timed out|timeout|throttl|slow ?down|too many requests|connection (reset|refused|closed)|broken pipe|service unavailable/i;

/** True when a reader's error message says the environment failed, not the bytes. */
export function isEnvironmentError(message: string): boolean {
  return ENVIRONMENT.test(message);
}
