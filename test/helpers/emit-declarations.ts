/**
 * The published packages' typed entries (every `exports` entry with types,
 * e.g. `@lance-nd/nd-arrow`, `@lance-nd/casting/coded-error`) and their
 * .d.ts files as the build declares them (stripInternal), emitted in memory
 * from the sources by one TypeScript program, so no build is needed.
 */
import { readFileSync, readdirSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import ts from "typescript";

/** A published package's typed entry: its import specifier and its source file. */
export interface PublicEntry {
  /** What a user imports, e.g. `@lance-nd/casting/coded-error`. */
  specifier: string;
  /** The entry's source (its "@lance-nd/source" target), absolute. */
  source: string;
}

/** A published package and its typed entries. */
export interface PublicPackage {
  name: string;
  /** Its folder under packages/. */
  dir: string;
  entries: PublicEntry[];
}

interface Manifest {
  name: string;
  private?: boolean;
  exports?: Record<string, Record<string, string>>;
}

/** The packages under `root`/packages that are published, with their typed entries. */
export function publicPackages(root: string): PublicPackage[] {
  const out: PublicPackage[] = [];
  for (const dir of readdirSync(join(root, "packages")).sort()) {
    const manifest = JSON.parse(readFileSync(join(root, "packages", dir, "package.json"), "utf8")) as Manifest;
    if (manifest.private === true) continue;
    const entries = Object.entries(manifest.exports ?? {})
      .filter(([, target]) => target.types !== undefined && target["@lance-nd/source"] !== undefined)
      .map(([subpath, target]) => ({
        specifier: subpath === "." ? manifest.name : `${manifest.name}${subpath.slice(1)}`,
        source: join(root, "packages", dir, target["@lance-nd/source"] as string),
      }));
    if (entries.length > 0) out.push({ name: manifest.name, dir, entries });
  }
  return out;
}

/** The build's options (tsconfig.base.json) for an in-memory declaration emit of the sources. */
function emitOptions(root: string): ts.CompilerOptions {
  const config = ts.getParsedCommandLineOfConfigFile(
    join(root, "tsconfig.base.json"),
    {},
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (d) => {
        throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
      },
    },
  );
  if (config === undefined) throw new Error("tsconfig.base.json did not parse");
  return {
    ...config.options,
    customConditions: ["@lance-nd/source"],
    noEmit: false,
    declaration: true,
    emitDeclarationOnly: true,
    declarationMap: false,
    sourceMap: false,
    stripInternal: true,
    rootDir: root,
    outDir: join(root, ".tmp", "public-declarations"),
  };
}

/**
 * The .d.ts text of every source file the entries reach, keyed by the source
 * file's path. One program; the emit skips the full type check (the
 * typecheck task does that): the sixth argument of `Program.emit`
 * (forceDtsEmit), which TypeScript's builder uses to compute a file's
 * declaration signature. Without it the text is the same, only slower.
 */
export function emitDeclarations(root: string, sources: readonly string[]): Map<string, string> {
  const options = emitOptions(root);
  const program = ts.createProgram(sources, options);
  const emitted = new Map<string, string>();
  const emit = program.emit as (
    target: undefined,
    write: ts.WriteFileCallback,
    cancel: undefined,
    onlyDts: boolean,
    transformers: undefined,
    forceDtsEmit: boolean,
  ) => ts.EmitResult;
  const result = emit.call(
    program,
    undefined,
    (file, text) => emitted.set(file, text),
    undefined,
    true,
    undefined,
    true,
  );
  if (result.emitSkipped) throw new Error("the declaration emit was skipped");
  const out = new Map<string, string>();
  const outDir = options.outDir as string;
  for (const [file, text] of emitted) {
    out.set(resolve(root, relative(outDir, file)).replace(/\.d\.ts$/, ".ts"), text);
  }
  return out;
}
