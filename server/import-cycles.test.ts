import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree, shortenTree } from 'dpdm';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describe("the server's import graph", () => {
  // A circle of modules loads in an order that depends on which one is imported first (a value
  // read before its module finished is undefined) and ties areas together, e.g. recording a
  // match and mailing its donor. Type-only imports are left out: they vanish at run time.
  it('has no circular imports', async () => {
    const tree = await parseDependencyTree(['server/**/*.ts', 'server/**/*.tsx'], {
      context: repo,
      transform: true,
      exclude: /node_modules|\.test\.tsx?$/,
    });
    const cycles = parseCircular(shortenTree(repo, tree)).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  }, 120_000);
});
