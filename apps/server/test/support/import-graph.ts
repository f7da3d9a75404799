/**
 * The server's import graph, read from the sources (module-boundaries.test.ts): which file imports which,
 * and whether only types. Plus the rules of the module walls and a cycle finder, pure, so that the test can
 * show them failing on a small graph too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

export interface ImportEdge {
  /** Importing file, relative to the source root, with forward slashes. */
  from: string;
  /** Imported file, relative to the source root. */
  to: string;
  /** Only types are imported: erased when compiled, nothing loads at run time. */
  typeOnly: boolean;
}

/** Every `.ts`/`.mjs` file under `root`, relative, tests included. */
export function sourceFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(ts|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) {
        found.push(path.relative(root, full).split(path.sep).join('/'));
      }
    }
  };
  walk(root);
  return found.sort();
}

function isTypeOnlyImport(node: ts.ImportDeclaration): boolean {
  const clause = node.importClause;
  if (!clause) return false; // a side-effect import loads the file
  if (clause.isTypeOnly) return true;
  if (clause.name) return false;
  const bindings = clause.namedBindings;
  if (!bindings || ts.isNamespaceImport(bindings)) return false;
  return bindings.elements.length > 0 && bindings.elements.every((e) => e.isTypeOnly);
}

/** The relative imports of one file's text (static imports, re-exports and `import()` of a literal). */
export function importsOf(file: string, text: string): ImportEdge[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, false);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, typeOnly: boolean) => {
    if (!specifier.startsWith('.')) return;
    const to = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    edges.push({ from: file, to, typeOnly });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      add(node.moduleSpecifier.text, isTypeOnlyImport(node));
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const typeOnly =
        node.isTypeOnly ||
        (!!node.exportClause &&
          ts.isNamedExports(node.exportClause) &&
          node.exportClause.elements.length > 0 &&
          node.exportClause.elements.every((e) => e.isTypeOnly));
      add(node.moduleSpecifier.text, typeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal))
        add(argument.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** The import graph of every source file under `root`. */
export function readImportGraph(root: string): ImportEdge[] {
  return sourceFiles(root).flatMap((file) => importsOf(file, readFileSync(path.join(root, file), 'utf8')));
}

/** Where a file belongs: `module:<name>`, or the layer (`lib`, `infra`, `db`, `http`, `app`). */
export function placeOf(file: string): string {
  const module = /^modules\/([^/]+)\//.exec(file);
  if (module) return `module:${module[1]}`;
  const layer = /^(lib|infra|db|http)\//.exec(file);
  return layer ? layer[1]! : 'app';
}

const isTest = (file: string) => /\.test\.ts$/.test(file);

/**
 * What a module shows the others: its front door `modules/<m>/index.ts`, and its tables (`<name>.schema.ts`
 * at the module's top), which the database shares: another module may join them in its SQL.
 */
export function isPublicEntry(file: string): boolean {
  return /^modules\/[^/]+\/index\.ts$/.test(file) || /^modules\/[^/]+\/[^/]+\.schema\.ts$/.test(file);
}

/**
 * The imports that break a wall, with the rule each breaks:
 * - a file outside module M reaches a file of M other than its front door or its tables;
 * - `lib` or `infra` imports a module at all (they are below every module).
 * Tests beside the code may set up their fixtures from another module's internals (they are not loaded by
 * the server); lib and infra tests may not import modules either.
 */
export function wallBreaches(edges: readonly ImportEdge[]): string[] {
  const breaches: string[] = [];
  for (const edge of edges) {
    const from = placeOf(edge.from);
    const to = placeOf(edge.to);
    if (!to.startsWith('module:') || from === to) continue;
    if (from === 'lib' || from === 'infra') {
      breaches.push(`${edge.from} → ${edge.to}: ${from} imports no module`);
    } else if (!isTest(edge.from) && !isPublicEntry(edge.to)) {
      breaches.push(`${edge.from} → ${edge.to}: another module's internals (use its index.ts)`);
    }
  }
  return breaches;
}

/** The import cycles of a graph, each as the path that closes it (`a → b → a`); one per strongly connected part. */
export function findCycles(edges: ReadonlyArray<{ from: string; to: string }>): string[][] {
  const next = new Map<string, string[]>();
  for (const { from, to } of edges) {
    if (!next.has(from)) next.set(from, []);
    next.get(from)!.push(to);
  }
  // Tarjan's strongly connected components, iteratively (the graph has hundreds of files).
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const components: string[][] = [];
  for (const start of next.keys()) {
    if (index.has(start)) continue;
    const work: Array<{ node: string; children: string[]; at: number }> = [];
    const enter = (node: string) => {
      index.set(node, counter);
      low.set(node, counter);
      counter++;
      stack.push(node);
      onStack.add(node);
      work.push({ node, children: next.get(node) ?? [], at: 0 });
    };
    enter(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      if (frame.at < frame.children.length) {
        const child = frame.children[frame.at++]!;
        if (!index.has(child)) enter(child);
        else if (onStack.has(child)) low.set(frame.node, Math.min(low.get(frame.node)!, index.get(child)!));
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const component: string[] = [];
        let node: string;
        do {
          node = stack.pop()!;
          onStack.delete(node);
          component.push(node);
        } while (node !== frame.node);
        const selfLoop = (next.get(frame.node) ?? []).includes(frame.node);
        if (component.length > 1 || selfLoop) components.push(component);
      }
    }
  }
  return components.map((component) => cyclePath(component, next));
}

/** One cycle through a strongly connected component, as a path from its first node back to it. */
function cyclePath(component: string[], next: Map<string, string[]>): string[] {
  const members = new Set(component);
  const first = [...component].sort()[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [first];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const child of next.get(node) ?? []) {
      if (!members.has(child)) continue;
      if (child === first) {
        const path = [first];
        for (let at = node; at !== first; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, first];
      }
      if (!cameFrom.has(child)) {
        cameFrom.set(child, node);
        queue.push(child);
      }
    }
  }
  return [first, first];
}

/** The graph between modules (an edge for each module that imports another, types included). */
export function moduleEdges(edges: readonly ImportEdge[]): Array<{ from: string; to: string }> {
  const seen = new Set<string>();
  const result: Array<{ from: string; to: string }> = [];
  for (const edge of edges) {
    if (isTest(edge.from)) continue;
    const from = placeOf(edge.from);
    const to = placeOf(edge.to);
    if (!from.startsWith('module:') || !to.startsWith('module:') || from === to) continue;
    const key = `${from}>${to}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ from: from.slice('module:'.length), to: to.slice('module:'.length) });
  }
  return result;
}
