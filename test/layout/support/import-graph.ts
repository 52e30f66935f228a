import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** One relative import of a project file: what it names, and whether only types cross it (erased at run time). */
export interface ProjectImport {
  target: string;
  typeOnly: boolean;
}

const sourceExtensions = ['.ts', '.mts', '.mjs'];
/** Folders that hold no source of their own: build output and installed packages. */
const skippedFolders = new Set(['node_modules', 'dist']);

/** The source files of a top-level folder (`.ts`, `.mts`, `.mjs`; declaration files aside), as repository paths. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && sourceExtensions.some((extension) => entry.name.endsWith(extension)))
    .filter((entry) => !/\.d\.m?ts$/.test(entry.name))
    .map((entry) => path.relative(root, path.join(entry.parentPath, entry.name)))
    .filter((file) => !file.split(path.sep).some((part) => skippedFolders.has(part)));
}

/** The file a specifier names: `.js` written for a `.ts` source, `.mjs` for itself, a folder for its index. */
function resolveSpecifier(root: string, from: string, specifier: string): string {
  const joined = path.normalize(path.join(path.dirname(from), specifier));
  const candidates = [joined, joined.replace(/\.js$/, '.ts'), joined.replace(/\.mjs$/, '.mts'), `${joined}/index.ts`];
  const found = candidates.find((candidate) => existsSync(path.join(root, candidate)) && !isFolder(root, candidate));
  return found ?? joined.replace(/\.js$/, '.ts');
}

const isFolder = (root: string, file: string) => statSync(path.join(root, file)).isDirectory();

const importPattern =
  /(?:^|\n)\s*(import|export)\s+(type\s+)?(?:[^'"`;]*?\s+from\s+)?['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

/** Every relative import (static, re-export or dynamic) of a file, resolved to repository paths. */
export function projectImports(root: string, file: string): ProjectImport[] {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(importPattern)].map((match) => ({
    target: resolveSpecifier(root, file, (match[3] ?? match[4])!),
    typeOnly: match[2] !== undefined,
  }));
}

/**
 * The room a file lives in: each `routers/<resource>/` folder is one, the root router files
 * (`routers/_*.ts`) another; `server`, `contracts` and `client` one each; tests and the rest none.
 */
export function roomOf(file: string): string | undefined {
  const [top, second] = file.split('/');
  if (top === 'routers') return second!.endsWith('.ts') ? 'routers/_root' : `routers/${second}`;
  return ['server', 'contracts', 'client'].includes(top!) ? top : undefined;
}

/** Who imports each file: importer paths by imported path, over the given files. */
export function importersOf(root: string, files: readonly string[]): Map<string, Set<string>> {
  const importers = new Map<string, Set<string>>();
  for (const file of files) {
    for (const { target } of projectImports(root, file)) {
      if (!importers.has(target)) importers.set(target, new Set());
      importers.get(target)!.add(file);
    }
  }
  return importers;
}

/** The one router folder that alone imports a server file, or undefined when server code or two rooms use it. */
export function soleRouterRoom(importers: ReadonlySet<string> | undefined): string | undefined {
  const rooms = new Set([...(importers ?? [])].map(roomOf).filter((room) => room !== undefined));
  const [room] = rooms;
  return rooms.size === 1 && room!.startsWith('routers/') && room !== 'routers/_root' ? room : undefined;
}
