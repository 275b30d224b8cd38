/** The side panels of the page: the table, its variables, global attributes and datasets. */
import type { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { DatasetEntry, DatasetSummary, TableSummary } from "../catalog.js";
import { coordText, isTimeCoord } from "./coord-text.js";

/** `key: value` rows into a `<table>`. */
function fillRows(table: HTMLElement, rows: readonly (readonly [string, string])[]): void {
  table.replaceChildren(
    ...rows.map(([key, value]) => {
      const tr = document.createElement("tr");
      const th = document.createElement("th");
      const td = document.createElement("td");
      th.textContent = key;
      th.title = key;
      td.textContent = value;
      tr.append(th, td);
      return tr;
    }),
  );
}

/** A byte count as B, KiB, MiB or GiB. */
function bytesText(bytes: number | null): string {
  if (bytes === null) return "unknown (not a local table)";
  const units = ["B", "KiB", "MiB", "GiB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** The table panel and the version picker. */
export function showTable(summary: TableSummary): void {
  fillRows(document.getElementById("table-info")!, [
    ["format", `lance-nd v${summary.formatVersion}`],
    ["version", `${summary.version} of ${summary.versions.length} kept`],
    ["rows", String(summary.rows)],
    ["size", bytesText(summary.bytes)],
    ["datasets", String(summary.datasets.length)],
  ]);
  const picker = document.getElementById("version") as HTMLSelectElement;
  picker.replaceChildren(
    ...summary.versions.map((v) => {
      const option = new Option(`${v.version}  (${v.timestamp.replace("T", " ").slice(0, 19)})`, String(v.version));
      option.selected = v.version === summary.version;
      return option;
    }),
  );
}

/** A range end as short text. */
function valueText(value: unknown): string {
  return typeof value === "number" ? String(Number(value.toPrecision(5))) : String(value);
}

/**
 * The variables of the selected dataset: type, dims, range of values with
 * units (from the table's stats column; none without one; a time
 * coordinate's as dates, from `coords`, as the sliders show it), and
 * whether the table keeps a stats column for it.
 */
export function showVariables(summary: TableSummary, dataset: DatasetSummary, coords: NdRecordBatch): void {
  fillRows(
    document.getElementById("variables")!,
    dataset.variables.map((v) => {
      const units = typeof v.attrs.units === "string" ? ` ${v.attrs.units}` : "";
      const hasStats = summary.variables.find((t) => t.name === v.name)?.stats === true;
      const size = coords.get(v.name)?.size ?? 0;
      const range = isTimeCoord(coords, v.name)
        ? `${coordText(coords, v.name, 0)} to ${coordText(coords, v.name, size - 1)}`
        : v.min === null
          ? hasStats
            ? "no values"
            : "range not kept"
          : `${valueText(v.min)} to ${valueText(v.max)}${units}`;
      const stats = hasStats ? ", stats column" : "";
      return [v.name, `${v.type} (${v.dims.join(", ")}): ${range}${stats}`];
    }),
  );
}

/** The global attributes of the selected dataset. */
export function showGlobalAttrs(dataset: DatasetSummary): void {
  fillRows(
    document.getElementById("global-attrs")!,
    Object.entries(dataset.globalAttrs).map(([key, value]) => [
      key,
      typeof value === "string" ? value : JSON.stringify(value),
    ]),
  );
}

/**
 * The dataset list: each dataset's id and rows, and its dims once its
 * summary is `known`; `onSelect` is called with the dataset clicked.
 */
export function showDatasets(
  datasets: readonly DatasetEntry[],
  known: ReadonlyMap<string | null, DatasetSummary>,
  selected: string | null,
  onSelect: (dataset: DatasetEntry) => void,
): void {
  const list = document.getElementById("datasets")!;
  list.replaceChildren(
    ...datasets.map((dataset) => {
      const li = document.createElement("li");
      li.dataset.id = dataset.id ?? "";
      li.className = dataset.id === selected ? "selected" : "";
      const dims = known.get(dataset.id)?.dims.map((d) => `${d.name}=${d.size}`);
      li.textContent = `${dataset.id ?? "(no id)"}  (${dims === undefined ? "" : `${dims.join(", ")}; `}${dataset.rows} row${dataset.rows === 1 ? "" : "s"})`;
      li.addEventListener("click", () => onSelect(dataset));
      return li;
    }),
  );
}

/** Shows only the datasets whose id is in `ids` (all when undefined). */
export function narrowDatasets(ids: ReadonlySet<string | null> | undefined): void {
  for (const li of document.querySelectorAll<HTMLLIElement>("#datasets li")) {
    const id = li.dataset.id === "" ? null : (li.dataset.id ?? null);
    li.hidden = ids !== undefined && !ids.has(id);
  }
}
