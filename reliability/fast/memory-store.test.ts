// The object store scenario through memory:// (tables live in the process).
import { describe, expect, it } from "vitest";
import { open } from "lance-nd";
import { storeScenario } from "../helpers/store-scenario.js";

describe("memory:// object store", () => {
  it("write, append, NdWriter, read, filter, delete, compact, widen, checkout and restore", async () => {
    await storeScenario("memory://reliability/store.lance");
  });

  it("a table that does not exist: TableNotFound", async () => {
    await expect(open("memory://reliability/missing.lance")).rejects.toMatchObject({ code: "TableNotFound" });
  });
});
