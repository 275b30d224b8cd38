/**
 * The reader contract's shared suite (`sourceContract` of test-helpers)
 * against `datasetSource`: a table's dataset, its rows one whole file or
 * chunk rows, and a selection of it.
 */
import { sourceContract } from "@lance-nd/test-helpers";
import { dataset } from "../../src/dataset/dataset.js";
import { datasetSource } from "../../src/dataset/dataset-source.js";
import { tempDir } from "../helpers/make-table.js";
import { sstBatch, writeChunked } from "./fixture.js";

const dir = tempDir("dataset-source");
let n = 0;
const uri = () => `${dir}/t${n++}.lance`;

sourceContract("datasetSource(one row)", () => ({
  open: async () => datasetSource(await dataset(await writeChunked(uri(), sstBatch(), {}))),
  variable: "sst",
}));
sourceContract("datasetSource(chunk rows)", () => ({
  open: async () => datasetSource(await dataset(await writeChunked(uri(), sstBatch(), { time: 5, lat: 4 }))),
  variable: "sst",
}));
sourceContract("datasetSource(a selection)", () => ({
  open: async () =>
    datasetSource((await dataset(await writeChunked(uri(), sstBatch(), { time: 4 }))).isel({ time: [2, 10], lon: 3 })),
  variable: "sst",
}));
