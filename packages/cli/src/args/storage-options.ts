/**
 * `--storage-option key=value`: the options of the object store a table is
 * on (`s3://`, `az://`, `gs://`), passed to Lance as the library's
 * `storageOptions` (CLI README, "Object stores").
 */
import { InvalidArgumentError, Option } from "commander";

/** The options a command with `--storage-option` gets from commander. */
export interface StorageOptionFlags {
  /** Every `--storage-option` given, by key (lowercase). */
  storageOption?: Record<string, string>;
}

/**
 * The repeatable `--storage-option <key=value>` of every command that opens
 * or creates a table.
 */
export function storageOptionFlag(): Option {
  return new Option(
    "--storage-option <key=value>",
    "an option of the object store the table is on, e.g. endpoint=http://127.0.0.1:9000 or azure_storage_account_name=acct (repeatable; added to what the environment sets)",
  ).argParser(parseStorageOption);
}

/**
 * One `key=value` added to the ones given before (`previous`). The key is
 * everything before the first `=`, lowercased as Lance's keys are; the value
 * is the rest, as given (keys and tokens may hold `=`, `,` or `/`). Throws
 * commander's `InvalidArgumentError` for text without `=`, an empty key or a
 * key given twice.
 *
 * @example parseStorageOption("AWS_ENDPOINT=http://127.0.0.1:9000") // { aws_endpoint: "http://127.0.0.1:9000" }
 */
export function parseStorageOption(
  text: string,
  previous: Readonly<Record<string, string>> = {},
): Record<string, string> {
  const eq = text.indexOf("=");
  const key = text.slice(0, Math.max(eq, 0)).trim().toLowerCase();
  if (eq < 0 || key === "") throw new InvalidArgumentError(`expected key=value, got "${text}"`);
  if (Object.hasOwn(previous, key)) throw new InvalidArgumentError(`"${key}" is given twice`);
  return { ...previous, [key]: text.slice(eq + 1) };
}

/** The library's `storageOptions` of a command's flags: none when no `--storage-option` was given. */
export function storageOptionsOf(flags: StorageOptionFlags): { storageOptions?: Record<string, string> } {
  return flags.storageOption === undefined ? {} : { storageOptions: flags.storageOption };
}
