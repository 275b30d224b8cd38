import { DataType, LargeBinary, LargeUtf8, Utf8, Binary } from "apache-arrow";

/** Utf8, LargeUtf8, Binary and LargeBinary reduced to their family and offset width. */
export interface VariableWidthType {
  readonly family: "utf8" | "binary";
  /** True for 64-bit offsets (LargeUtf8, LargeBinary). */
  readonly large: boolean;
}

/** The variable-width view of `type`, or undefined for other types. */
export function variableWidthType(type: DataType): VariableWidthType | undefined {
  if (DataType.isUtf8(type)) return { family: "utf8", large: false };
  if (DataType.isLargeUtf8(type)) return { family: "utf8", large: true };
  if (DataType.isBinary(type)) return { family: "binary", large: false };
  if (DataType.isLargeBinary(type)) return { family: "binary", large: true };
  return undefined;
}

/** Within a family the offset width changes, never a value: safe. Across families: no cast. */
export function variableWidthLevel(from: VariableWidthType, to: VariableWidthType): "safe" | undefined {
  return from.family === to.family ? "safe" : undefined;
}

/** The large type of the family when either is large (numpy promotes U5 and U10 to U10). */
export function variableWidthPromote(a: VariableWidthType, b: VariableWidthType): DataType | undefined {
  if (a.family !== b.family) return undefined;
  const large = a.large || b.large;
  if (a.family === "utf8") return large ? new LargeUtf8() : new Utf8();
  return large ? new LargeBinary() : new Binary();
}
