/**
 * The source's file-level import graph, read with TypeScript's parser: every import and
 * re-export (`export * as x from` too), type-only ones included, since a type-only circle still
 * ties two files into one unit to read and to move, and every literal `import()` and
 * `import('…').T` type. Only relative specifiers are followed: the packages are imported by
 * name and never import the server back.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

export const repoRoot = fileURLToPath(new URL('../../', import.meta.url));

const sourceFile = /\.tsx?$/;
const declarationFile = /\.d\.ts$/;

const filesUnder = (folder: string): string[] =>
  readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    if (statSync(path).isDirectory()) return name === 'node_modules' || name === 'dist' ? [] : filesUnder(path);
    return sourceFile.test(name) && !declarationFile.test(name) ? [path] : [];
  });

/** Repo-relative paths of the files each file imports, for every source file under `folders`. */
export const importGraph = (folders: readonly string[]): Map<string, string[]> => {
  const files = folders.flatMap((folder) => filesUnder(join(repoRoot, folder)));
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const targets = specifiersOf(file)
      .filter((specifier) => specifier.startsWith('.'))
      .map((specifier) => resolve(dirname(file), specifier))
      .map((target) => [target, `${target}.ts`, `${target}.tsx`].find((candidate) => known.has(candidate)))
      .filter((target) => target !== undefined);
    graph.set(relative(repoRoot, file), [...new Set(targets.map((target) => relative(repoRoot, target)))]);
  }
  return graph;
};

const specifiersOf = (file: string): string[] => {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, false);
  const specifiers: string[] = [];
  const literal = (node: ts.Node | undefined) => {
    if (node !== undefined && ts.isStringLiteralLike(node)) specifiers.push(node.text);
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) literal(node.moduleSpecifier);
    else if (ts.isImportEqualsDeclaration(node) && ts.isExternalModuleReference(node.moduleReference)) literal(node.moduleReference.expression);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) literal(node.arguments[0]);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument)) literal(node.argument.literal);
    ts.forEachChild(node, visit);
  };
  visit(source);
  return specifiers;
};

/**
 * The import circles of a graph: its strongly connected components of more than one file
 * (Tarjan's algorithm), each sorted, plus any file that imports itself.
 */
export const importCircles = (graph: ReadonlyMap<string, readonly string[]>): string[][] => {
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
};
