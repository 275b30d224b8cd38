/**
 * The durable record of a widen rewrite's pending replay (README.md,
 * "Widen"): the rewrite's overwrite writes it into the table schema
 * metadata, so a process that meets the table after the widening process
 * died knows which window of commits is still to replay. Lance can add
 * schema metadata keys but not change or remove one (packages/format
 * FORMAT.md, section 7), so the record is closed by adding a second key,
 * and the next overwrite of the table drops all three keys.
 */
import { randomUUID } from "node:crypto";
import type { Schema } from "apache-arrow";
import { LanceNdError } from "../errors.js";

/** The schema metadata key of the record: JSON `{ read, variable, id }`. */
export const REPLAY_KEY = "lance_nd:widen_replay";
/** Added (value: the record's id) by the last commit of the replay: the record is done. */
export const REPLAY_DONE_KEY = "lance_nd:widen_replay.done";
/** Added (JSON `{ id, after }`) right before the replay appends the window's rows. */
export const REPLAY_APPENDING_KEY = "lance_nd:widen_replay.appending";

/** A pending replay: the version the rewrite read and the variable it widened. */
export interface ReplayRecord {
  /** The version whose rows the rewrite's overwrite holds. */
  read: number;
  /** The widened variable. */
  variable: string;
  /** Tells this rewrite's keys from an earlier one's. */
  id: string;
}

/** The progress mark of the append step: the version the table had before the mark. */
export interface AppendingMark {
  /** The record's id. */
  id: string;
  /** The replay's append, if it happened, is a later version than this. */
  after: number;
}

/** A new record for a rewrite of the rows of version `read`. */
export function newReplayRecord(read: number, variable: string): ReplayRecord {
  return { read, variable, id: randomUUID() };
}

/** The schema metadata of an overwrite carrying `record`: the keys of any earlier record dropped. */
export function withReplayRecord(metadata: ReadonlyMap<string, string>, record: ReplayRecord): Map<string, string> {
  const out = new Map([...metadata].filter(([key]) => !key.startsWith(REPLAY_KEY)));
  out.set(REPLAY_KEY, JSON.stringify(record));
  return out;
}

/**
 * The pending replay a table schema records, or null when it has none or it
 * is done.
 *
 * @throws LanceNdError `InvalidTable` for a record lance-nd did not write.
 */
export function pendingReplay(schema: Schema, uri: string): ReplayRecord | null {
  const text = schema.metadata.get(REPLAY_KEY);
  if (text === undefined) return null;
  const record = parseJson(text);
  const valid =
    isObject(record) &&
    Number.isSafeInteger(record.read) &&
    (record.read as number) > 0 &&
    typeof record.variable === "string" &&
    typeof record.id === "string";
  if (!valid) throw corrupt(REPLAY_KEY, text, uri);
  const { read, variable, id } = record as unknown as ReplayRecord;
  return schema.metadata.get(REPLAY_DONE_KEY) === id ? null : { read, variable, id };
}

/**
 * The append mark of `record` in a table schema, or null.
 *
 * @throws LanceNdError `InvalidTable` for a mark lance-nd did not write.
 */
export function appendingMark(schema: Schema, record: ReplayRecord, uri: string): AppendingMark | null {
  const text = schema.metadata.get(REPLAY_APPENDING_KEY);
  if (text === undefined) return null;
  const mark = parseJson(text);
  if (!isObject(mark) || typeof mark.id !== "string" || !Number.isSafeInteger(mark.after))
    throw corrupt(REPLAY_APPENDING_KEY, text, uri);
  return mark.id === record.id ? (mark as unknown as AppendingMark) : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null;
}

function corrupt(key: string, text: string, uri: string): LanceNdError {
  return new LanceNdError(
    "InvalidTable",
    `schema metadata key "${key}" holds ${JSON.stringify(text.slice(0, 80))}, not a widen replay record lance-nd wrote, so \`lance-nd check --repair\` cannot complete it; restore the version before the widen's rewrite (\`lance-nd versions\` lists them) or write the table again`,
    { uri },
  );
}

/** The commits of a rewrite and its replay, in order. */
export type ReplayStep = "overwrite" | "deletes" | "appending" | "append";

/**
 * Steps of a widen's rewrite a test can wait in (the reliability suite kills
 * a process there). Not exported from the package's entries, but kept in
 * the published declarations: those of the widen modules name it (marked
 * internal, stripInternal would leave them naming a missing export).
 */
export interface RewriteHooks {
  /** Runs after the rewrite read its rows, before the overwrite. */
  afterRead?: (read: number) => Promise<void>;
  /** Runs after each step of the rewrite or its replay committed (a replay with nothing to delete or append skips those). */
  afterStep?: (step: ReplayStep) => Promise<void>;
}
