import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { appImportEdges, cyclesOf, servicesNode, type ImportEdge } from '../support/import-graph';

// The shape of app/services, checked on the whole import graph (eslint.config.js enforces the
// same with its layer list, file by file): no two top-level folders of app/services import each
// other, directly or round a longer loop, and no service imports the pages.

const edges = appImportEdges(path.resolve('.'));
const describeEdge = (e: ImportEdge) => `${e.from} imports '${e.specifier}'`;

describe('the import graph of app/services', () => {
  it('has no cycles between its top-level folders and files', () => {
    const folderEdges = edges.flatMap((e) => {
      const a = servicesNode(e.from);
      const b = servicesNode(e.to);
      return a && b && a !== b ? [[a, b] as const] : [];
    });
    expect(folderEdges.length).toBeGreaterThan(50);
    const report = cyclesOf(folderEdges).map((cycle) => {
      const inCycle = edges.filter((e) => {
        const a = servicesNode(e.from);
        const b = servicesNode(e.to);
        return a !== b && a !== null && b !== null && cycle.includes(a) && cycle.includes(b);
      });
      return `${cycle.join(' <-> ')}:\n  ${inCycle.map(describeEdge).join('\n  ')}`;
    });
    expect(report).toEqual([]);
  });

  it('never imports the pages (app/ui, app/routes, app/*.tsx)', () => {
    const pages = (file: string) => /^app\/(ui|routes)\//.test(file) || /^app\/[^/]+\.tsx$/.test(file);
    const offending = edges.filter((e) => e.from.startsWith('app/services/') && pages(e.to)).map(describeEdge);
    expect(offending).toEqual([]);
  });
});

describe('the cycle finder', () => {
  it('finds a loop through several folders and names each folder in it once', () => {
    const cycles = cyclesOf([
      ['jobs/', 'backtest/'],
      ['backtest/', 'screener/'],
      ['screener/', 'jobs/'],
      ['screener/', 'metrics/'],
      ['metrics/', 'market/'],
    ]);
    expect(cycles).toEqual([['backtest/', 'jobs/', 'screener/']]);
  });

  it('finds none in a layered graph', () => {
    expect(
      cyclesOf([
        ['company/', 'metrics/'],
        ['company/', 'market/'],
        ['metrics/', 'market/'],
      ]),
    ).toEqual([]);
  });

  it('reads folders from paths: a file at the top of app/services is its own node', () => {
    expect(servicesNode(path.join('app', 'services', 'market', 'store', 'schema.ts'))).toBe('market/');
    expect(servicesNode(path.join('app', 'services', 'dates.ts'))).toBe('dates.ts');
    expect(servicesNode(path.join('app', 'ui', 'Table.tsx'))).toBeNull();
  });
});
