import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  findCycles,
  type ImportEdge,
  importsOf,
  moduleEdges,
  readImportGraph,
  wallBreaches,
} from './support/import-graph.ts';

/**
 * The walls between the server's modules, over every file under apps/server/src (new files join by
 * themselves): a module reaches another only through its front door (`modules/<m>/index.ts`, or its tables
 * in `<m>.schema.ts`), lib and infra import no module, modules depend on each other one way only, and no
 * file takes part in an import cycle. docs/architecture.md draws the resulting map.
 */
const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../src');
const graph = readImportGraph(SRC);

/**
 * Imports of types only are left out of the file cycles: they are erased when compiled, so they decide no
 * load order and cannot leave a module half-initialised (a module's `events.ts` names the payload types of
 * the services that publish them, which import it for its declarations). Between modules they count: a
 * module that names another's types depends on it.
 */
const loaded = graph.filter((edge) => !edge.typeOnly);

describe('module walls (apps/server/src)', () => {
  it('reads the graph', () => {
    expect(graph.length).toBeGreaterThan(500);
  });

  it('reaches another module only through its front door, and keeps lib and infra below every module', () => {
    expect(wallBreaches(graph)).toEqual([]);
  });

  it('has modules that depend on each other one way only', () => {
    expect(findCycles(moduleEdges(graph)).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('has no import cycle between files', () => {
    expect(findCycles(loaded).map((cycle) => cycle.join(' → '))).toEqual([]);
  });

  it('leaves every domain-event subscription to a module: start-up and the HTTP layer make none', () => {
    // Modules subscribe in their descriptor (`subscribe`, or `follow` for the running parts); code that
    // wires the system together only loops over them.
    const wiring = ['.', 'start', 'http'].flatMap((dir) =>
      readdirSync(path.join(SRC, dir))
        .filter((name) => name.endsWith('.ts') && !name.endsWith('.test.ts'))
        .map((name) => path.join(dir, name)),
    );
    expect(wiring.length).toBeGreaterThan(10);
    const subscribing = wiring.filter((file) =>
      /\.subscribe\(\s*['"`]/.test(readFileSync(path.join(SRC, file), 'utf8')),
    );
    expect(subscribing).toEqual([]);
  });
});

describe('the wall rules, on a small graph', () => {
  const edge = (from: string, to: string, typeOnly = false): ImportEdge => ({ from, to, typeOnly });

  it('reads static, type-only, re-exported and dynamic imports', () => {
    const text = [
      "import { a } from '../b/x.ts';",
      "import type { T } from './t.ts';",
      "import { type U } from './u.ts';",
      "import './side.ts';",
      "export { c } from '../c/index.ts';",
      "import pino from 'pino';",
      "const later = () => import('./later.ts');",
    ].join('\n');
    expect(importsOf('modules/a/file.ts', text)).toEqual([
      edge('modules/a/file.ts', 'modules/b/x.ts'),
      edge('modules/a/file.ts', 'modules/a/t.ts', true),
      edge('modules/a/file.ts', 'modules/a/u.ts', true),
      edge('modules/a/file.ts', 'modules/a/side.ts'),
      edge('modules/a/file.ts', 'modules/c/index.ts'),
      edge('modules/a/file.ts', 'modules/a/later.ts'),
    ]);
  });

  it('finds a planted reach into internals, and a module imported by lib or infra', () => {
    expect(
      wallBreaches([
        edge('modules/a/a.service.ts', 'modules/b/index.ts'),
        edge('modules/a/a.repository.ts', 'modules/b/b.schema.ts'),
        edge('modules/a/a.service.ts', 'modules/b/b.repository.ts', true),
        edge('lib/helper.ts', 'modules/b/index.ts'),
        edge('infra/thing.ts', 'modules/b/b.schema.ts'),
        edge('http/guard.ts', 'modules/b/internal/deep.ts'),
        edge('modules/a/a.test.ts', 'modules/b/b.repository.ts'),
        edge('system.ts', 'modules/b/index.ts'),
      ]),
    ).toEqual([
      "modules/a/a.service.ts → modules/b/b.repository.ts: another module's internals (use its index.ts)",
      'lib/helper.ts → modules/b/index.ts: lib imports no module',
      'infra/thing.ts → modules/b/b.schema.ts: infra imports no module',
      "http/guard.ts → modules/b/internal/deep.ts: another module's internals (use its index.ts)",
    ]);
  });

  it('finds cycles, each once, and nothing in a graph without one', () => {
    expect(findCycles([edge('a', 'b'), edge('b', 'c'), edge('a', 'c')])).toEqual([]);
    expect(
      findCycles([
        edge('a', 'b'),
        edge('b', 'c'),
        edge('c', 'a'),
        edge('c', 'd'),
        edge('d', 'e'),
        edge('e', 'd'),
        edge('f', 'f'),
      ]),
    ).toEqual(
      expect.arrayContaining([
        ['a', 'b', 'c', 'a'],
        ['d', 'e', 'd'],
        ['f', 'f'],
      ]),
    );
    expect(
      findCycles([edge('a', 'b'), edge('b', 'c'), edge('c', 'a'), edge('d', 'e'), edge('e', 'd')]),
    ).toHaveLength(2);
  });

  it('turns the files into a graph between modules, two-way dependencies showing as a cycle', () => {
    const modules = moduleEdges([
      edge('modules/a/x.ts', 'modules/b/index.ts'),
      edge('modules/a/y.ts', 'modules/b/index.ts', true),
      edge('modules/b/z.ts', 'modules/a/index.ts', true),
      edge('modules/b/z.test.ts', 'modules/c/index.ts'),
      edge('lib/l.ts', 'lib/m.ts'),
    ]);
    expect(modules).toEqual([
      { from: 'a', to: 'b' },
      { from: 'b', to: 'a' },
    ]);
    expect(findCycles(modules)).toEqual([['a', 'b', 'a']]);
  });
});
