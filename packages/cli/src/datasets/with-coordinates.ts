/**
 * `export --project` keeps the coordinates of the variables it names, as
 * xarray's `ds[["tas"]]` does (CLI README, "Export"): every dimension
 * coordinate (a 1-D variable named as its dim) along a dim of a named
 * variable comes along.
 */

/** A variable as far as its coordinates go: its name and dim names. */
export interface NamedDims {
  readonly name: string;
  readonly dims: readonly string[];
}

/**
 * `names` followed by the dimension coordinates among `variables` along the
 * dims of the named variables, in `variables`' order, each once.
 */
export function withCoordinates(names: readonly string[], variables: readonly NamedDims[]): string[] {
  const named = new Set(names);
  const dims = new Set(variables.filter((v) => named.has(v.name)).flatMap((v) => v.dims));
  const coordinates = variables.filter(
    (v) => !named.has(v.name) && v.dims.length === 1 && v.dims[0] === v.name && dims.has(v.name),
  );
  return [...names, ...coordinates.map((v) => v.name)];
}
