/** The numbers of an attribute, strictly (CF attributes that must be numbers) or leniently (ignored otherwise). */
import type { NdArray } from "@lance-nd/nd-arrow";
import { CfError } from "./cf-error.js";

/** The numbers of an attribute, or `undefined` when it is absent or holds anything else. */
export function numbersOf(array: NdArray, key: string): (number | bigint)[] | undefined {
  const found = array.attrs.get(key);
  if (found === undefined) return undefined;
  const items = Array.from(found.value as Iterable<unknown>);
  return items.every((v) => typeof v === "number" || typeof v === "bigint")
    ? (items as (number | bigint)[])
    : undefined;
}

/** The numbers of a numeric attribute, or `undefined` when absent; a text attribute is `InvalidAttribute`. */
export function numericAttr(array: NdArray, key: string, variable?: string): (number | bigint)[] | undefined {
  const items = numbersOf(array, key);
  if (items === undefined && array.attrs.has(key)) {
    throw new CfError("InvalidAttribute", `must be numbers, found ${String(array.attrs.get(key)!.type)}`, {
      variable,
      attribute: key,
    });
  }
  return items;
}
