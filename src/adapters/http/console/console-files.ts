import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from '../docs/openapi-document';

/**
 * console/dist at the package root, where `npm run console:build` writes the console and where the
 * published package carries it: found from this file's own place, whichever entry started the
 * process (npm start, a module's entry file, the installed package), as docs/openapi.yaml is.
 */
export const CONSOLE_DIST = path.join(packageRoot(), 'console', 'dist');

export interface ConsoleFile {
  readonly contentType: string;
  readonly body: Buffer;
}

export interface ConsoleFiles {
  /** The page itself (index.html): every screen's address answers with it. */
  readonly page: ConsoleFile;
  /** console/dist/assets: the bundles, named by their content hash. */
  readonly assets: ReadonlyMap<string, ConsoleFile>;
  /** Other files at the top of console/dist (the icon). */
  readonly topLevel: ReadonlyMap<string, ConsoleFile>;
}

/** Only these kinds are served; anything else in the build (a source map, say) stays on disk. */
const CONTENT_TYPES: Readonly<Record<string, string>> = {
  '.js': 'application/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
};

function filesIn(directory: string): Map<string, ConsoleFile> {
  const files = new Map<string, ConsoleFile>();
  if (!existsSync(directory)) return files;
  for (const name of readdirSync(directory)) {
    const contentType = CONTENT_TYPES[path.extname(name).toLowerCase()];
    const file = path.join(directory, name);
    if (!contentType || !statSync(file).isFile()) continue;
    files.set(name, { contentType, body: readFileSync(file) });
  }
  return files;
}

const read = new Map<string, ConsoleFiles | null>();

/**
 * The built console, read whole the first time an app is built in this process: requests are
 * answered from memory by file name, so no request path ever reaches the file system. Null when the
 * console has not been built (a build made later is served from the next start).
 */
export function readConsoleFiles(directory: string = CONSOLE_DIST): ConsoleFiles | null {
  if (read.has(directory)) return read.get(directory)!;
  const index = path.join(directory, 'index.html');
  const files = existsSync(index)
    ? { page: { contentType: 'text/html; charset=utf-8', body: readFileSync(index) }, assets: filesIn(path.join(directory, 'assets')), topLevel: filesIn(directory) }
    : null;
  read.set(directory, files);
  return files;
}
