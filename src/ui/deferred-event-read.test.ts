import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parseAst } from 'vite';
import { describe, expect, it } from 'vitest';

/**
 * Issue 30: Payouts went blank on the second remapped column because an onChange read
 * `e.currentTarget.value` inside a state updater. React runs a queued updater after the event has
 * been dispatched, when `currentTarget` is already null (the first change happens to be computed
 * eagerly, which is why one change worked). A value from the event is read in the handler and the
 * updater closes over that value; this test finds any updater that reaches into an event again.
 */
const root = join(import.meta.dirname, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

type Node = { type: string; start: number; end: number; [key: string]: unknown };

function children(node: Node): Node[] {
  return Object.values(node).flatMap((value) =>
    Array.isArray(value)
      ? value.filter((v): v is Node => typeof v?.type === 'string')
      : value && typeof value === 'object' && typeof (value as Node).type === 'string'
        ? [value as Node]
        : [],
  );
}

/** The source of the first `x.currentTarget` or `x.target` inside `node`. */
function readsEvent(node: Node, text: string): string | null {
  if (node.type === 'MemberExpression' && !node.computed) {
    const name = (node.property as Node & { name?: string }).name;
    if (name === 'currentTarget' || name === 'target') return text.slice(node.start, node.end);
  }
  for (const child of children(node)) {
    const found = readsEvent(child, text);
    if (found) return found;
  }
  return null;
}

function deferredEventReads(path: string, text: string): string[] {
  const program = parseAst(text, { lang: path.endsWith('x') ? 'tsx' : 'ts' }) as unknown as Node;
  const out: string[] = [];
  const visit = (node: Node) => {
    if (node.type === 'CallExpression') {
      const callee = node.callee as Node & { name?: string };
      const [first] = node.arguments as Node[];
      if (
        callee.type === 'Identifier' &&
        /^set[A-Z]\w*$/.test(callee.name ?? '') &&
        first &&
        (first.type === 'ArrowFunctionExpression' || first.type === 'FunctionExpression')
      ) {
        const read = readsEvent(first.body as Node, text);
        if (read) {
          const line = text.slice(0, node.start).split('\n').length;
          out.push(`${relative(root, path)}:${line} ${read}`);
        }
      }
    }
    for (const child of children(node)) visit(child);
  };
  visit(program);
  return out;
}

describe('state updaters never read the event', () => {
  it('finds the payouts shape that blanked the screen', () => {
    const bad = `const M = () => <select onChange={(e) => setMap((m) => ({ ...m, a: e.currentTarget.value }))} />;`;
    expect(deferredEventReads(join(root, 'x.tsx'), bad)).toEqual(['x.tsx:1 e.currentTarget']);
    const good = `const M = () => <select onChange={(e) => { const v = e.currentTarget.value; setMap((m) => ({ ...m, a: v })); }} />;`;
    expect(deferredEventReads(join(root, 'x.tsx'), good)).toEqual([]);
  });

  it('holds in every file under src/', () => {
    const found = sourceFiles(root).flatMap((path) => deferredEventReads(path, readFileSync(path, 'utf8')));
    expect(found).toEqual([]);
  });
});
