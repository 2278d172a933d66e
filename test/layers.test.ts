// The layers of src/ (docs/architecture.md) as the imports have them: every relative import,
// type-only, re-export and dynamic ones included.
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = resolve(import.meta.dirname, '../src');
const IMPORT = /(?:import|export)\s+(?:type\s+)?(?:[^'"]*?\sfrom\s+)?['"](\.[^'"]+)['"]|import\(\s*['"](\.[^'"]+)['"]\s*\)/g;

const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts')).map((f) => join(SRC, f));
const graph = new Map(
  files.map((f) => [
    relative(SRC, f),
    [...readFileSync(f, 'utf8').matchAll(IMPORT)].map((m) => relative(SRC, resolve(dirname(f), m[1] ?? m[2]).replace(/\.js$/, '.ts'))),
  ]),
);
/** The folder under src/ ("server", "store", ...), or "" for a top-level module (the composition root). */
const layer = (file: string) => (file.includes('/') ? file.split('/')[0] : '');

/** `from → to` for every import of a module in `from` (a folder) of a module in one of `to`. */
function crossings(from: string, to: string[]): string[] {
  return [...graph].flatMap(([f, deps]) => (layer(f) === from ? deps.filter((d) => to.includes(layer(d))).map((d) => `${f} → ${d}`) : []));
}

function cycles(): string[][] {
  // Tarjan's strongly connected components; any with more than one module is a cycle.
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>(), stack: string[] = [], onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!graph.has(w)) continue;
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const scc: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      scc.push(w);
    } while (w !== v);
    if (scc.length > 1) found.push(scc);
  };
  for (const f of graph.keys()) if (!index.has(f)) visit(f);
  return found;
}

const SERVICES = ['sessions', 'sites', 'checks', 'webhooks', 'logs', 'state', 'events', 'geo'];

describe('layers', () => {
  it('imports: every import of src/ names a module that exists', () => {
    expect([...graph].flatMap(([f, deps]) => deps.filter((d) => !graph.has(d)).map((d) => `${f} → ${d}`))).toEqual([]);
  });
  it('domain: imports nothing of ours', () => {
    expect(crossings('domain', ['', 'store', 'server', 'cli', 'client', ...SERVICES])).toEqual([]);
  });
  it('store: imports only the domain', () => {
    expect(crossings('store', ['', 'server', 'cli', 'client', ...SERVICES])).toEqual([]);
  });
  it('api: the route declarations and schemas import only the domain (the server, the client and the library import them)', () => {
    const open = (c: string) => c.endsWith('→ version.ts'); // a constant, open to all
    expect(crossings('api', ['', 'store', 'server', 'cli', 'client', 'library', 'browser', ...SERVICES]).filter((c) => !open(c))).toEqual([]);
  });
  it('services: import neither the server, the CLI nor the client', () => {
    expect(SERVICES.flatMap((s) => crossings(s, ['server', 'cli', 'client']))).toEqual([]);
  });
  it('server: reaches data only through services, never the store', () => {
    expect(crossings('server', ['store', 'cli', 'client'])).toEqual([]);
  });
  it('cli: talks to the server through the client; may start the composition root, never import the server', () => {
    expect(crossings('cli', ['server', 'store', ...SERVICES])).toEqual([]);
  });
  it('client: imports nothing but the domain', () => {
    expect(crossings('client', ['', 'server', 'store', 'cli', ...SERVICES])).toEqual([]);
  });
  it('library: starts the composition root and talks through the client, never the server or the store', () => {
    expect(crossings('library', ['server', 'store', 'cli'])).toEqual([]);
  });
  it('cli: nothing outside it imports it', () => {
    const layers = [...new Set([...graph.keys()].map(layer))].filter((l) => l !== 'cli');
    expect(layers.flatMap((l) => crossings(l, ['cli']))).toEqual([]);
  });
  it('cycles: no module imports itself through others', () => {
    expect(cycles()).toEqual([]);
  });
  it('zod: imported as a namespace, so the bundle keeps only the parts used (the named `z` keeps all of zod)', () => {
    const named = files.filter((f) => /^import \{[^}]*\bz\b[^}]*\} from 'zod'/m.test(readFileSync(f, 'utf8')));
    expect(named.map((f) => relative(SRC, f))).toEqual([]);
  });
});
