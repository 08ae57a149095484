/**
 * The source's file-level import graph, read with TypeScript's parser: every import and
 * re-export (`export * as x from` too), type-only ones included, since a type-only circle still
 * ties two files into one unit to read and to move, and every literal `import()` and
 * `import('…').T` type. Only relative specifiers are followed: the packages are imported by
 * name and never import the server back. test/unit/import-graph.test.ts holds the rules.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

/** One import of a file: the repo-relative path it names, and whether it brings types only. */
export type ImportEdge = { target: string; typeOnly: boolean };

/** What one source file imports, and whether it reads `process.env`. */
export type SourceFacts = { imports: ImportEdge[]; readsProcessEnv: boolean };

const sourceFile = /\.tsx?$/;
const declarationFile = /\.d\.ts$/;

const filesUnder = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : filesUnder(path);
    return sourceFile.test(name) && !declarationFile.test(name) ? [path] : [];
  });

/** `import type`, `export type`, or named bindings that are every one `type`. */
function isTypeOnly(node: ts.ImportDeclaration | ts.ExportDeclaration): boolean {
  if (ts.isExportDeclaration(node)) {
    return node.isTypeOnly || (node.exportClause !== undefined && ts.isNamedExports(node.exportClause) && node.exportClause.elements.every((element) => element.isTypeOnly));
  }
  const clause = node.importClause;
  if (clause === undefined) return false;
  if (clause.isTypeOnly) return true;
  const bindings = clause.namedBindings;
  return clause.name === undefined && bindings !== undefined && ts.isNamedImports(bindings) && bindings.elements.length > 0 && bindings.elements.every((element) => element.isTypeOnly);
}

function factsOf(file: string): { specifiers: Array<{ specifier: string; typeOnly: boolean }>; readsProcessEnv: boolean } {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: Array<{ specifier: string; typeOnly: boolean }> = [];
  let readsProcessEnv = false;
  const add = (node: ts.Node | undefined, typeOnly: boolean) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) specifiers.push({ specifier: node.text, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) add(node.moduleSpecifier, isTypeOnly(node));
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) add(node.moduleReference.expression, node.isTypeOnly);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) add(node.arguments[0], false);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) add(node.argument.literal, true);
    else if (ts.isPropertyAccessExpression(node) && node.name.text === 'env' && ts.isIdentifier(node.expression) && node.expression.text === 'process') readsProcessEnv = true;
    ts.forEachChild(node, visit);
  };
  visit(source);
  return { specifiers, readsProcessEnv };
}

/**
 * Every source file under `folders` (repo-relative), with the files of those folders it imports.
 *
 * @example
 *   sourceFacts(['src']).get('src/app.ts')?.imports; // [{ target: 'src/context.ts', typeOnly: true }, …]
 */
export function sourceFacts(folders: readonly string[]): Map<string, SourceFacts> {
  const files = folders.flatMap((folder) => filesUnder(join(repoRoot, folder)));
  const known = new Set(files);
  const facts = new Map<string, SourceFacts>();
  for (const file of files) {
    const { specifiers, readsProcessEnv } = factsOf(file);
    const imports = new Map<string, boolean>();
    for (const { specifier, typeOnly } of specifiers) {
      if (!specifier.startsWith('.')) continue;
      const base = resolve(dirname(file), specifier);
      const target = [base, `${base}.ts`, `${base}.tsx`].find((candidate) => known.has(candidate));
      // A file imported for its values anywhere is not a type-only import of it.
      if (target !== undefined) imports.set(relative(repoRoot, target), (imports.get(relative(repoRoot, target)) ?? true) && typeOnly);
    }
    facts.set(relative(repoRoot, file), { imports: [...imports].map(([target, typeOnly]) => ({ target, typeOnly })), readsProcessEnv });
  }
  return facts;
}

/**
 * The import circles of a graph: its strongly connected components of more than one file
 * (Tarjan's algorithm), each sorted, plus any file that imports itself.
 *
 * @example
 *   importCircles(new Map([['a.ts', ['b.ts']], ['b.ts', ['a.ts']]])); // [['a.ts', 'b.ts']]
 */
export function importCircles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (file: string) => {
    index.set(file, index.size);
    low.set(file, index.get(file) ?? 0);
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file) ?? 0, index.get(next) ?? 0));
      }
    }
    if (low.get(file) !== index.get(file)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    if (component.length > 1 || (graph.get(file) ?? []).includes(file)) circles.push(component.sort());
  };
  for (const file of graph.keys()) if (!index.has(file)) visit(file);
  return circles;
}
