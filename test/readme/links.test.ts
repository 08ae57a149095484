/**
 * The README and docs are the whole way in: every link in the project's Markdown resolves to a
 * file of this repository (no `../shared/…`, nothing outside the checkout, nothing missing), and
 * none points at the web except the service's own local address; a link's `#anchor` names a heading of
 * the file it points to.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../support/database.ts';

const root = resolve(import.meta.dirname, '..', '..');

/** The anchors GitHub gives a Markdown file's headings (its slug rule; a repeated slug gets -1, -2, …). */
function anchorsOf(text: string): Set<string> {
  const anchors = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    const heading = fenced ? undefined : /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    let unique = slug;
    for (let n = 1; anchors.has(unique); n++) unique = `${slug}-${n}`;
    anchors.add(unique);
  }
  return anchors;
}

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name.startsWith('.') || entry.name === 'node_modules' || entry.name === 'data' || entry.name === 'dist') return [];
    const path = join(dir, entry.name);
    return entry.isDirectory() ? markdownFiles(path) : entry.name.endsWith('.md') ? [path] : [];
  });
}

describe.skipIf(testDbKind() === 'postgres')('Markdown links', () => {
  const files = markdownFiles(root);

  it('finds the README and the docs', () => {
    expect(files.map((file) => relative(root, file))).toEqual(expect.arrayContaining(['README.md', 'docs/api-conventions.md']));
  });

  it.each(files.map((file) => [relative(root, file), file]))('%s links only inside the repository', (_name, file) => {
    const text = readFileSync(file, 'utf8');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (target === undefined) continue;
      const [pathPart = '', anchor] = target.split('#');
      if (anchor !== undefined && !/^[a-z]+:/i.test(target)) {
        const linked = pathPart === '' ? file : resolve(dirname(file), pathPart);
        if (linked.endsWith('.md') && existsSync(linked)) {
          expect([...anchorsOf(readFileSync(linked, 'utf8'))], `${file}: ${target} names no heading`).toContain(anchor);
        }
      }
      if (target.startsWith('#')) continue;
      if (/^[a-z]+:/i.test(target)) {
        expect(target, `${file}: ${target}`).toMatch(/^http:\/\/(127\.0\.0\.1|localhost)[:/]/);
        continue;
      }
      const path = resolve(dirname(file), target.split('#')[0] ?? '');
      expect(relative(root, path).startsWith('..'), `${file} links outside the repository: ${target}`).toBe(false);
      expect(existsSync(path), `${file} links to a missing file: ${target}`).toBe(true);
    }
  });
});
