import { describe, expect, it } from "vitest";
import {
  checkArrayName,
  isFormatError,
  isReservedName,
  quoteFieldPath,
  quoteIdentifier,
  selectName,
  sqlStringLiteral,
} from "../src/index.js";
import { formatErrorOf } from "./fixtures.js";

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (err) {
    return isFormatError(err) ? err.code : `not a FormatError: ${String(err)}`;
  }
  return undefined;
}

describe("names", () => {
  it("7.7 each name that starts with __stats__ is reserved, and so is each name that starts with __", () => {
    expect(isReservedName("__stats__:sst")).toBe(true);
    expect(isReservedName("__stats__")).toBe(true);
    expect(isReservedName("__global_attrs__")).toBe(true);
    expect(isReservedName("__x")).toBe(true);
    expect(isReservedName("_x")).toBe(false);
    expect(isReservedName("sst__")).toBe(false);
  });

  it("an array name that starts with __ is ReservedName; an empty name or one with a dot is InvalidInput", () => {
    expect(codeOf(() => checkArrayName("__stats__:sst"))).toBe("ReservedName");
    expect(codeOf(() => checkArrayName("__global_attrs__"))).toBe("ReservedName");
    expect(codeOf(() => checkArrayName(""))).toBe("InvalidInput");
    expect(codeOf(() => checkArrayName("sea.surface"))).toBe("InvalidInput");
    expect(codeOf(() => checkArrayName("sea surface: temp"))).toBeUndefined();
  });

  it("an array name with a backtick is InvalidInput naming it (Lance cannot read such a column back)", () => {
    const err = formatErrorOf(() => checkArrayName("back`tick"), "InvalidInput");
    expect(err.column).toBe("back`tick");
    expect(err.message).toContain("back`tick");
  });

  it("Lance SQL identifiers are backtick-quoted with a backtick inside doubled", () => {
    expect(quoteIdentifier("sst")).toBe("`sst`");
    expect(quoteIdentifier("__stats__:sst")).toBe("`__stats__:sst`");
    expect(quoteIdentifier("a`b")).toBe("`a``b`");
    expect(quoteIdentifier("")).toBe("``");
  });

  it("a field path quotes each level: `__global_attrs__`.`id`", () => {
    expect(quoteFieldPath(["__global_attrs__", "id"])).toBe("`__global_attrs__`.`id`");
    expect(quoteFieldPath(["__stats__:sst", "max"])).toBe("`__stats__:sst`.`max`");
    expect(quoteFieldPath(["sst", "attrs", "a.b"])).toBe("`sst`.`attrs`.`a.b`");
    expect(codeOf(() => quoteFieldPath([]))).toBe("InvalidInput");
  });

  it("SQL string literals double single quotes and keep backslashes", () => {
    expect(sqlStringLiteral("a")).toBe("'a'");
    expect(sqlStringLiteral("it's")).toBe("'it''s'");
    expect(sqlStringLiteral("c:\\x")).toBe("'c:\\x'");
  });

  it("select names are quoted only when they hold a dot or a backtick", () => {
    expect(selectName("sst")).toBe("sst");
    expect(selectName("__stats__:sst")).toBe("__stats__:sst");
    expect(selectName("sea surface")).toBe("sea surface");
    expect(selectName("a`b")).toBe("`a``b`");
    expect(selectName("a.b")).toBe("`a.b`");
  });
});
