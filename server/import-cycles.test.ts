import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree, shortenTree } from 'dpdm';
import { describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The server's modules and what each imports at run time, read once for every rule below. */
let graph: Promise<ReturnType<typeof shortenTree>> | undefined;
function importGraph() {
  graph ??= parseDependencyTree(['server/**/*.ts', 'server/**/*.tsx'], {
    context: repo,
    transform: true,
    exclude: /node_modules|\.test\.tsx?$/,
  }).then((tree) => shortenTree(repo, tree));
  return graph;
}

/** Sending donor mail: the notifier, the templates it renders and the mail renderers. */
const mailSide = ['server/modules/notifications/', 'server/modules/templates/', 'server/mail/'];

describe("the server's import graph", () => {
  // A circle of modules loads in an order that depends on which one is imported first (a value
  // read before its module finished is undefined) and ties areas together, e.g. recording a
  // match and mailing its donor. Type-only imports are left out: they vanish at run time.
  it('has no circular imports', async () => {
    const cycles = parseCircular(await importGraph()).map((cycle) => cycle.join(' -> '));
    expect(cycles).toEqual([]);
  }, 120_000);

  // Mail reads matches; a match is recorded without knowing how its donor is told. The callers
  // hand the donations service a notifier (MatchNotifier), so a change to the emails can never
  // reach back into how a match is written (issue #30).
  it('lets the mail side depend on matches and never the reverse', async () => {
    const tree = await importGraph();
    const backwards = Object.entries(tree).flatMap(([file, imports]) =>
      file.startsWith('server/modules/donations/')
        ? (imports ?? [])
            .filter((i) => i.id !== null && mailSide.some((side) => i.id?.startsWith(side)))
            .map((i) => `${file} -> ${i.id}`)
        : [],
    );
    expect(Object.keys(tree).filter((file) => file.startsWith('server/modules/donations/'))).not.toEqual([]);
    expect(backwards).toEqual([]);
  }, 120_000);
});
