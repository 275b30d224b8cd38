/**
 * Byte strings (Binary values, numpy's `|S<n>`) as text for `scan` (CLI
 * README, "scan"): the bytes decoded as UTF-8 when they are valid UTF-8,
 * else Python's escaped form of bytes, `b'\xff\x00x'`.
 */
import { Type } from "apache-arrow";
import type { DataType } from "apache-arrow";

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** True for the Arrow types whose values are byte strings. */
export function isByteStrings(type: DataType): boolean {
  return type.typeId === Type.Binary || type.typeId === Type.LargeBinary;
}

/** One byte string as text: its UTF-8 text, or `b'...'` with `\xNN` for bytes outside printable ASCII. */
export function byteText(bytes: Uint8Array): string {
  try {
    return UTF8.decode(bytes);
  } catch {
    let text = "b'";
    for (const byte of bytes) {
      if (byte === 0x5c || byte === 0x27) text += `\\${String.fromCharCode(byte)}`;
      else if (byte >= 0x20 && byte < 0x7f) text += String.fromCharCode(byte);
      else text += `\\x${byte.toString(16).padStart(2, "0")}`;
    }
    return `${text}'`;
  }
}
