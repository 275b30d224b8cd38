/** Where a command writes: standard output for data, standard error for messages. */

/** A text or byte sink (process.stdout / process.stderr, or a test buffer). */
export interface Sink {
  write(chunk: string | Uint8Array): unknown;
  /** True when the sink is a terminal (progress bars, colours). */
  readonly isTTY?: boolean;
}

/** The outputs of one run of the command line. */
export interface Io {
  /** Data and reports: machine-readable with `--json`. */
  stdout: Sink;
  /** Errors, warnings and progress. */
  stderr: Sink;
}

/** Writes `line` and a newline. */
export function println(sink: Sink, line = ""): void {
  sink.write(`${line}\n`);
}

/** Writes `value` as one line of JSON (bigints as decimal strings, non-finite numbers as strings). */
export function printJson(sink: Sink, value: unknown, pretty = true): void {
  sink.write(`${JSON.stringify(value, jsonReplacer, pretty ? 2 : undefined)}\n`);
}

/** `JSON.stringify` replacer of the command line: bigints as decimal strings, non-finite numbers as strings. */
export function jsonReplacer(_key: string, value: unknown): unknown {
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  return value;
}

/** Writes a one-line warning to standard error. */
export function warn(io: Io, message: string): void {
  println(io.stderr, `lance-nd: warning: ${message}`);
}
