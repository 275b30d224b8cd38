import { describe, expect, it } from "vitest";
import { tilingProblem } from "../src/tiling.js";

describe("tilingProblem", () => {
  it("boxes that tile the box (sticking out is fine) give undefined", () => {
    expect(tilingProblem([[0, 4]], [[0], [2]], [[2], [2]])).toBeUndefined();
    expect(tilingProblem([[1, 3]], [[0], [2]], [[2], [2]])).toBeUndefined();
  });

  it("a gap names the covered cells and the first uncovered cell", () => {
    expect(tilingProblem([[0, 4]], [[0]], [[2]])).toEqual({ kind: "gap", covered: 2, cells: 4, cell: [2] });
    expect(
      tilingProblem(
        [
          [0, 2],
          [0, 2],
        ],
        [
          [0, 0],
          [1, 1],
        ],
        [
          [1, 2],
          [1, 1],
        ],
      ),
    ).toMatchObject({ kind: "gap", cell: [1, 0] });
  });

  it("an overlap names both boxes; empty boxes never overlap", () => {
    expect(tilingProblem([[0, 4]], [[0], [2], [1]], [[2], [2], [2]])).toEqual({ kind: "overlap", boxes: [0, 2] });
    expect(tilingProblem([[0, 2]], [[0], [0]], [[2], [0]])).toBeUndefined();
  });
});
