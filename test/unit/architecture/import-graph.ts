/**
 * The project's own imports, read with the TypeScript compiler (`ts.preProcessFile`: `import`,
 * `import type`, `export … from` and `require()` alike), as a graph of files; and what the layout
 * rules measure on it: circles of files, imports that run back up the provider's layers, and files'
 * lengths.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";

/** The repository's root. */
export const ROOT = path.resolve(__dirname, "../../..");

/** Every `.ts` file under `dir` (relative to the root, `/`-separated), skipping generated and installed trees. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(ROOT, rel))) {
      if (name === "node_modules" || name === "dist" || name.startsWith(".")) continue;
      const child = `${rel}/${name}`;
      if (statSync(path.join(ROOT, child)).isDirectory()) walk(child);
      else if (/\.(ts|mts|cts)$/.test(name) && !name.endsWith(".d.ts")) out.push(child);
    }
  };
  if (existsSync(path.join(ROOT, dir))) walk(dir);
  return out.sort();
}

/** One file's imports: files of the repository it imports, and the packages it names. */
export interface FileImports {
  files: string[];
  packages: string[];
}

function resolveRelative(from: string, specifier: string): string | undefined {
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), specifier));
  // A dynamic `import()` names the built file (`./x.js`) where a static import names the module (`./x`).
  for (const candidate of [base, `${base}.ts`, `${base}/index.ts`, base.replace(/\.js$/, ".ts")]) {
    const full = path.join(ROOT, candidate);
    if (existsSync(full) && statSync(full).isFile()) return candidate;
  }
  return undefined;
}

/** The imports of a file (relative to the root). */
export function importsOf(file: string): FileImports {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  const info = ts.preProcessFile(text, true, true);
  const files: string[] = [];
  const packages: string[] = [];
  for (const { fileName } of info.importedFiles) {
    if (fileName.startsWith(".")) {
      const resolved = resolveRelative(file, fileName);
      if (resolved !== undefined) files.push(resolved);
    } else packages.push(fileName);
  }
  return { files: [...new Set(files)], packages: [...new Set(packages)] };
}

/** The graph of the files under `dir`: each file → the files under `dir` it imports. */
export function graphOf(dir: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(dir)) {
    graph.set(
      file,
      importsOf(file).files.filter((f) => f.startsWith(`${dir}/`)),
    );
  }
  return graph;
}

/** Strongly connected components of more than one file (Tarjan's algorithm): the circles of files. */
export function circlesOf(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node) as number, low.get(next) as number));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node) as number, index.get(next) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) circles.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return circles;
}

/** The lines of a file. */
export function lineCount(file: string): number {
  const text = readFileSync(path.join(ROOT, file), "utf8");
  return text.endsWith("\n") ? text.split("\n").length - 1 : text.split("\n").length;
}
