/** netCDF attributes (always 1-D) as nd-arrow attributes: one value a scalar, several a list. */
import { attr } from "@lance-nd/nd-arrow";
import type { Attr } from "@lance-nd/nd-arrow";
import type { NcType, RawAttr } from "./raw.js";
import { BYTE_ATTRS_ATTR, STRING_ATTRS_ATTR } from "@lance-nd/cf";

const ATTR_HELPERS: Record<Exclude<NcType, "char" | "string">, (value: never) => Attr> = {
  byte: attr.int8,
  ubyte: attr.uint8,
  short: attr.int16,
  ushort: attr.uint16,
  int: attr.int32,
  uint: attr.uint32,
  int64: attr.int64,
  uint64: attr.uint64,
  float: attr.float32,
  double: attr.float64,
};

/**
 * Attributes of their own netCDF type: numbers as Int8..Float64, char
 * attributes as one Utf8, NC_STRING as Utf8 (a list when several). With
 * `storage`, the NC_STRING attributes of one value are named in
 * `_StringAttrs`, so that writers keep their type, and the char attributes
 * whose bytes are not UTF-8 (read as Latin-1) in `_ByteAttrs`, so that
 * writers give back their bytes.
 */
export function toAttrs(attrs: readonly RawAttr[], storage: boolean): Map<string, Attr> {
  const out = new Map<string, Attr>();
  for (const a of attrs) {
    if (a.type === "char" || a.type === "string") {
      // A NIL NC_STRING is a null item: such attributes are lists, whatever their length.
      const strings = a.value as readonly (string | null)[];
      const one = strings.length === 1 && strings[0] !== null;
      out.set(a.name, one ? attr.utf8(strings[0]!) : attr.utf8(strings as string[]));
    } else {
      const value = a.value as ArrayLike<number | bigint>;
      out.set(a.name, ATTR_HELPERS[a.type]((value.length === 1 ? value[0] : value) as never));
    }
  }
  const strings = attrs.filter((a) => a.type === "string" && a.value.length === 1).map((a) => a.name);
  if (storage && strings.length > 0) out.set(STRING_ATTRS_ATTR, attr.utf8(strings));
  const latin1 = attrs.filter((a) => a.latin1).map((a) => a.name);
  if (storage && latin1.length > 0) out.set(BYTE_ATTRS_ATTR, attr.utf8(latin1));
  return out;
}
