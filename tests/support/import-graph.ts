import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

// The import graph of app/, read the way the compiler reads it (static, type-only and dynamic
// imports and re-exports), for tests/unit/import-graph.test.ts.

export type ImportEdge = { from: string; to: string; specifier: string };

const EXTENSIONS = ['', '.ts', '.tsx', '.js', '/index.ts', '/index.tsx'];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

function resolveLocal(root: string, from: string, specifier: string): string | null {
  let base: string;
  if (specifier.startsWith('~/')) base = path.join(root, 'app', specifier.slice(2));
  else if (specifier.startsWith('.')) base = path.resolve(path.dirname(from), specifier);
  else return null;
  for (const ext of EXTENSIONS) {
    const p = base + ext;
    if (existsSync(p) && statSync(p).isFile()) return p;
  }
  return null;
}

/** Every import between files under `root/app`, as paths relative to `root`. */
export function appImportEdges(root: string): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of sourceFiles(path.join(root, 'app'))) {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    for (const ref of info.importedFiles) {
      const target = resolveLocal(root, file, ref.fileName);
      if (target) edges.push({ from: path.relative(root, file), to: path.relative(root, target), specifier: ref.fileName });
    }
  }
  return edges;
}

/** The node of a services file: its top-level folder, or the file itself when it sits at the top. */
export function servicesNode(file: string): string | null {
  const parts = file.split(path.sep);
  if (parts[0] !== 'app' || parts[1] !== 'services') return null;
  return parts.length > 3 ? `${parts[2]}/` : parts[2];
}

/** The cycles of a directed graph (one per strongly connected component with more than one node). */
export function cyclesOf(edges: readonly (readonly [string, string])[]): string[][] {
  const next = new Map<string, Set<string>>();
  for (const [a, b] of edges) {
    if (a === b) continue;
    if (!next.has(a)) next.set(a, new Set());
    if (!next.has(b)) next.set(b, new Set());
    next.get(a)!.add(b);
  }
  // Tarjan's strongly connected components.
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    order.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!order.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) === order.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const v of [...next.keys()].sort()) if (!order.has(v)) visit(v);
  return components;
}
