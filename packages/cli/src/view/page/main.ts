/**
 * The viewer page: loads the table summary, lists the datasets, filters
 * them with SQL, and shows a variable of the selected dataset. Bundled for
 * the browser by tsup (dist/view/page.js); nd-arrow decodes the server's
 * Arrow IPC here, without Node.
 */
import { NdRecordBatch } from "@lance-nd/nd-arrow";
import type { DatasetEntry, DatasetSummary, TableSummary } from "../catalog.js";
import { COLORMAP_NAMES, isColormapName } from "../colormaps.js";
import { getBatch, getJson } from "./client.js";
import { narrowDatasets, showDatasets, showGlobalAttrs, showTable, showVariables } from "./panels.js";
import { VariableView, drawable, lineLike } from "./variable-view.js";

const view = new VariableView();
let summary: TableSummary;
let dataset: DatasetSummary | undefined;
let coords: NdRecordBatch;
/** The summaries of the datasets read so far (dims, variables), by id, for the version shown. */
let known = new Map<string | null, DatasetSummary>();
/** The ids the filter box let through; undefined without a filter. */
let narrowed: ReadonlySet<string | null> | undefined;

const variablePicker = document.getElementById("variable") as HTMLSelectElement;
const colormapPicker = document.getElementById("colormap") as HTMLSelectElement;
const versionPicker = document.getElementById("version") as HTMLSelectElement;
const filter = document.getElementById("filter") as HTMLInputElement;
const filterError = document.getElementById("filter-error")!;
const viewError = document.getElementById("view-error")!;

colormapPicker.replaceChildren(...COLORMAP_NAMES.map((name) => new Option(name, name)));
colormapPicker.addEventListener("change", () => {
  if (isColormapName(colormapPicker.value)) view.setColormap(colormapPicker.value);
});
variablePicker.addEventListener("change", () => void showVariable(variablePicker.value));
versionPicker.addEventListener("change", () => void loadTable(Number(versionPicker.value)));
filter.addEventListener("keydown", (event) => {
  if (event.key === "Enter") void applyFilter();
});

async function loadTable(version?: number): Promise<void> {
  try {
    summary = await getJson<TableSummary>("table", { version });
  } catch (err) {
    viewError.textContent = err instanceof Error ? err.message : String(err);
    return;
  }
  showTable(summary);
  known = new Map();
  const same = summary.datasets.find((d) => dataset !== undefined && d.id === dataset.id);
  await selectDataset(same ?? summary.datasets[0]);
  if (filter.value.trim() !== "") await applyFilter();
}

async function selectDataset(entry: DatasetEntry | undefined): Promise<void> {
  if (entry === undefined) return;
  try {
    dataset =
      known.get(entry.id) ??
      (await getJson<DatasetSummary>("dataset", {
        version: summary.version,
        ...(entry.id === null ? {} : { dataset: entry.id }),
      }));
  } catch (err) {
    viewError.textContent = err instanceof Error ? err.message : String(err);
    return;
  }
  known.set(entry.id, dataset);
  showDatasets(summary.datasets, known, entry.id, (d) => void selectDataset(d));
  narrowDatasets(narrowed);
  showGlobalAttrs(dataset);
  const coordNames = dataset.dims.map((d) => d.name).filter((name) => dataset!.variables.some((v) => v.name === name));
  try {
    // Dims without coordinate variables (a polygon index) have nothing to fetch: their steps show as indices.
    coords =
      coordNames.length === 0
        ? new NdRecordBatch([])
        : await getBatch("coords", {
            version: summary.version,
            ...(dataset.id === null ? {} : { dataset: dataset.id }),
            names: coordNames.join(","),
          });
  } catch (err) {
    viewError.textContent = err instanceof Error ? err.message : String(err);
    return;
  }
  showVariables(summary, dataset, coords);
  const choices = dataset.variables.filter((v) => drawable(dataset!, v));
  const previous = variablePicker.value;
  variablePicker.replaceChildren(...choices.map((v) => new Option(`${v.name} (${v.dims.join(", ")})`, v.name)));
  const pick = choices.find((v) => v.name === previous) ?? choices[0];
  viewError.textContent = pick === undefined ? nothingToDraw(dataset) : "";
  if (pick === undefined) return;
  variablePicker.value = pick.name;
  await showVariable(pick.name);
}

/** Why the map stays empty: no variable has two dims of size > 1; those of one dim plot as lines. */
function nothingToDraw(shown: DatasetSummary): string {
  const lines = shown.variables.filter((v) => lineLike(shown, v)).map((v) => v.name);
  const named = `${lines.slice(0, 4).join(", ")}${lines.length > 4 ? ", ..." : ""}`;
  const hint =
    lines.length === 0 ? "" : `; draw one of one dim (${named}) as a line with lance-nd plot <table> <variable>`;
  return `nothing to draw as a map: no variable of this dataset has two dims of size > 1${hint}`;
}

async function showVariable(name: string): Promise<void> {
  const variable = dataset?.variables.find((v) => v.name === name);
  if (dataset === undefined || variable === undefined) return;
  await view.show({ version: summary.version, dataset, variable, coords });
}

async function applyFilter(): Promise<void> {
  const where = filter.value.trim();
  filterError.textContent = "";
  if (where === "") {
    narrowed = undefined;
    narrowDatasets(narrowed);
    return;
  }
  try {
    const { ids } = await getJson<{ ids: (string | null)[] }>("datasets", { version: summary.version, where });
    narrowed = new Set(ids);
    narrowDatasets(narrowed);
  } catch (err) {
    filterError.textContent = err instanceof Error ? err.message : String(err);
  }
}

void loadTable();
