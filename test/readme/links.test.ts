/**
 * The README and docs are the whole way in: every link in the project's Markdown resolves to a
 * file of this repository (no `../shared/…`, nothing outside the checkout, nothing missing), and
 * none points at the web except the service's own local address.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { testDbKind } from '../support/database.ts';

const root = resolve(import.meta.dirname, '..', '..');

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
      if (target === undefined || target.startsWith('#')) continue;
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
