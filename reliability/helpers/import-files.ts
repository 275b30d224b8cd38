// netCDF files for the import loops, generated on the fly (never committed):
// a classic (CDF-1) file of `rows` steps of `time`, each `columns` Float32
// values of `v`, so `import --chunk time=1` makes one row per step (its
// chunk_offset the step). The header is written here, by the netCDF classic
// format specification (a dim list, no attributes, one fixed-size variable).
import { writeFileSync } from "node:fs";

const NC_DIMENSION = 10;
const NC_VARIABLE = 11;
const NC_FLOAT = 5;

/** The value j of step t of a file written with `seed`. */
export function stepValue(seed: number, t: number, j: number): number {
  return (seed * 31 + t * 7 + j) % 1000;
}

/** Writes a classic netCDF file of `rows` steps of `columns` values each (variable `v`, dims time, x). */
export function writeStepsFile(path: string, seed: number, rows: number, columns: number): void {
  const header: number[] = [];
  const int = (n: number) => header.push((n >>> 24) & 255, (n >>> 16) & 255, (n >>> 8) & 255, n & 255);
  const name = (text: string) => {
    int(text.length);
    for (const c of Buffer.from(text)) header.push(c);
    while (header.length % 4 !== 0) header.push(0);
  };
  header.push(0x43, 0x44, 0x46, 1); // "CDF", version 1
  int(0); // numrecs
  int(NC_DIMENSION);
  int(2);
  name("time");
  int(rows);
  name("x");
  int(columns);
  int(0); // no global attributes
  int(0);
  int(NC_VARIABLE);
  int(1);
  name("v");
  int(2);
  int(0);
  int(1);
  int(0); // no variable attributes
  int(0);
  int(NC_FLOAT);
  int(rows * columns * 4);
  const begin = header.length + 4;
  int(begin);
  const data = new DataView(new ArrayBuffer(rows * columns * 4));
  for (let t = 0; t < rows; t++)
    for (let j = 0; j < columns; j++) data.setFloat32((t * columns + j) * 4, stepValue(seed, t, j), false);
  writeFileSync(path, Buffer.concat([Buffer.from(header), new Uint8Array(data.buffer)]));
}
