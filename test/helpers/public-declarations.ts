/**
 * The declarations a user of a published package's entry sees, from the
 * .d.ts text of emit-declarations.ts: each exported name's declarations,
 * sorted by name, then the package's declarations that those reach without
 * exporting them (an option type a user meets in a signature but cannot
 * import), comments left out. Names re-exported from another package show as
 * a line naming it (that package has its own text).
 */
import { dirname, resolve } from "node:path";
import ts from "typescript";
import type { PublicEntry } from "./emit-declarations.js";

/** A name resolved to its declarations in one of the package's files, or to another module. */
type Resolved = { file: string; nodes: ts.Statement[] } | { module: string; name: string };

/** Reads the emitted declarations of the package's files and resolves names through them. */
class DeclarationIndex {
  private readonly files = new Map<string, ts.SourceFile>();

  constructor(private readonly declarations: Map<string, string>) {}

  /** The parsed .d.ts of source `file`. */
  file(file: string): ts.SourceFile {
    let sf = this.files.get(file);
    if (sf === undefined) {
      const text = this.declarations.get(file);
      if (text === undefined) throw new Error(`no declarations emitted for ${file}`);
      sf = ts.createSourceFile(file, text, ts.ScriptTarget.ES2022, true);
      this.files.set(file, sf);
    }
    return sf;
  }

  /** The source file a relative specifier names, or undefined for a package import. */
  private target(from: string, specifier: string): string | undefined {
    if (!specifier.startsWith(".")) return undefined;
    return resolve(dirname(from), specifier).replace(/\.js$/, ".ts");
  }

  /** The names `file` exports, with what each resolves to. */
  exports(file: string, seen = new Set<string>()): Map<string, Resolved> {
    const out = new Map<string, Resolved>();
    if (seen.has(file)) return out;
    seen.add(file);
    for (const statement of this.file(file).statements) {
      if (ts.isExportDeclaration(statement)) {
        const specifier =
          statement.moduleSpecifier !== undefined && ts.isStringLiteral(statement.moduleSpecifier)
            ? statement.moduleSpecifier.text
            : undefined;
        const target = specifier === undefined ? undefined : this.target(file, specifier);
        if (statement.exportClause === undefined) {
          if (target === undefined) throw new Error(`export * from a package in ${file}`);
          for (const [name, resolved] of this.exports(target, seen)) out.set(name, resolved);
          continue;
        }
        if (!ts.isNamedExports(statement.exportClause)) throw new Error(`export * as in ${file}`);
        for (const element of statement.exportClause.elements) {
          const local = (element.propertyName ?? element.name).getText();
          const name = element.name.getText();
          if (specifier === undefined) out.set(name, this.local(file, local));
          else if (target === undefined) out.set(name, { module: specifier, name: local });
          else out.set(name, this.exported(target, local));
        }
      } else if (isExported(statement)) {
        const name = declaredName(statement);
        if (name !== undefined) out.set(name, this.local(file, name));
      }
    }
    return out;
  }

  /** What `name`, exported by `file`, resolves to. */
  private exported(file: string, name: string): Resolved {
    const resolved = this.exports(file).get(name);
    if (resolved === undefined) throw new Error(`${file} does not export ${name}`);
    return resolved;
  }

  /** What `name`, in scope in `file`, resolves to; undefined for a global or a type parameter. */
  local(file: string, name: string): Resolved {
    const sf = this.file(file);
    const nodes = sf.statements.filter((s) => declaredName(s) === name);
    if (nodes.length > 0) return { file, nodes };
    for (const statement of sf.statements) {
      if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
      const bindings = statement.importClause?.namedBindings;
      if (bindings === undefined || !ts.isNamedImports(bindings)) continue;
      for (const element of bindings.elements) {
        if (element.name.getText() !== name) continue;
        const imported = (element.propertyName ?? element.name).getText();
        const target = this.target(file, statement.moduleSpecifier.text);
        return target === undefined
          ? { module: statement.moduleSpecifier.text, name: imported }
          : this.exported(target, imported);
      }
    }
    return { module: "", name };
  }
}

/** Whether a statement carries `export`. */
function isExported(statement: ts.Statement): boolean {
  return (
    ts.canHaveModifiers(statement) &&
    (ts.getModifiers(statement) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword)
  );
}

/** The name a declaration statement declares (the first, for a variable statement). */
function declaredName(statement: ts.Statement): string | undefined {
  if (ts.isVariableStatement(statement)) {
    const [first] = statement.declarationList.declarations;
    return first !== undefined && ts.isIdentifier(first.name) ? first.name.text : undefined;
  }
  if (
    ts.isFunctionDeclaration(statement) ||
    ts.isClassDeclaration(statement) ||
    ts.isInterfaceDeclaration(statement) ||
    ts.isTypeAliasDeclaration(statement) ||
    ts.isEnumDeclaration(statement) ||
    ts.isModuleDeclaration(statement)
  ) {
    return statement.name?.getText();
  }
  return undefined;
}

/** The names a declaration refers to as types or in `typeof` / `extends` (their first identifier). */
function referencedNames(node: ts.Node): Set<string> {
  const names = new Set<string>();
  const visit = (n: ts.Node): void => {
    let name: ts.EntityName | ts.Expression | undefined;
    if (ts.isTypeReferenceNode(n)) name = n.typeName;
    else if (ts.isTypeQueryNode(n)) name = n.exprName;
    else if (ts.isExpressionWithTypeArguments(n)) name = n.expression;
    while (name !== undefined && (ts.isQualifiedName(name) || ts.isPropertyAccessExpression(name))) {
      name = ts.isQualifiedName(name) ? name.left : name.expression;
    }
    if (name !== undefined && ts.isIdentifier(name)) names.add(name.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return names;
}

const printer = ts.createPrinter({ removeComments: true });

/** The text of statements, without comments. */
function print(nodes: readonly ts.Statement[]): string {
  return nodes.map((n) => printer.printNode(ts.EmitHint.Unspecified, n, n.getSourceFile())).join("\n");
}

/** The declarations a user of `entry` sees, as described in this module's comment. */
export function entryDeclarations(entry: PublicEntry, declarations: Map<string, string>): string {
  const index = new DeclarationIndex(declarations);
  const exported = [...index.exports(entry.source)].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const lines: string[] = [];
  const shown = new Set<ts.Statement>();
  const pending: { file: string; nodes: ts.Statement[] }[] = [];
  for (const [name, resolved] of exported) {
    if ("module" in resolved) {
      lines.push(
        `export { ${resolved.name === name ? name : `${resolved.name} as ${name}`} } from "${resolved.module}";`,
      );
      continue;
    }
    const declared = declaredName(resolved.nodes[0] as ts.Statement);
    if (declared !== name) lines.push(`export { ${declared} as ${name} };`);
    lines.push(print(resolved.nodes));
    for (const node of resolved.nodes) shown.add(node);
    pending.push(resolved);
  }
  const reached: ts.Statement[][] = [];
  while (pending.length > 0) {
    const { file, nodes } = pending.pop() as { file: string; nodes: ts.Statement[] };
    for (const name of [...new Set(nodes.flatMap((n) => [...referencedNames(n)]))]) {
      const resolved = index.local(file, name);
      if ("module" in resolved || resolved.nodes.every((n) => shown.has(n))) continue;
      for (const node of resolved.nodes) shown.add(node);
      reached.push(resolved.nodes);
      pending.push(resolved);
    }
  }
  if (reached.length > 0) {
    lines.push("", "// Reached from the exports, not exported:");
    const sorted = reached.sort((a, b) => {
      const [x, y] = [declaredName(a[0] as ts.Statement) ?? "", declaredName(b[0] as ts.Statement) ?? ""];
      return x < y ? -1 : x > y ? 1 : 0;
    });
    for (const nodes of sorted) lines.push(print(nodes));
  }
  return `${lines.join("\n")}\n`;
}
