import { readFileSync } from 'node:fs';
import path from 'node:path';
import { DOCS_INIT_SCRIPT } from './docs-page';

export interface DocsAsset {
  readonly contentType: string;
  readonly body: Buffer;
}

type AssetSource = { readonly contentType: string } & ({ readonly packageFile: string } | { readonly text: string });

/**
 * The only files served under /docs/assets: a fixed list, so no request path ever reaches the file
 * system (the package also holds a demo page pointing at a public petstore, and source maps).
 */
const SOURCES: Readonly<Record<string, AssetSource>> = {
  'swagger-ui-bundle.js': { contentType: 'application/javascript; charset=utf-8', packageFile: 'swagger-ui-bundle.js' },
  'swagger-ui.css': { contentType: 'text/css; charset=utf-8', packageFile: 'swagger-ui.css' },
  'favicon-32x32.png': { contentType: 'image/png', packageFile: 'favicon-32x32.png' },
  'favicon-16x16.png': { contentType: 'image/png', packageFile: 'favicon-16x16.png' },
  'portcullis-docs.js': { contentType: 'application/javascript; charset=utf-8', text: DOCS_INIT_SCRIPT },
};

const loaded = new Map<string, DocsAsset>();

function packageDirectory(): string {
  return path.dirname(require.resolve('swagger-ui-dist/package.json'));
}

/** The asset of that name, read from the installed package once and then kept; null for any other name. */
export function docsAsset(name: string): DocsAsset | null {
  if (!Object.hasOwn(SOURCES, name)) return null;
  let asset = loaded.get(name);
  if (!asset) {
    const source = SOURCES[name]!;
    const body = 'text' in source ? Buffer.from(source.text, 'utf8') : readFileSync(path.join(packageDirectory(), source.packageFile));
    asset = { contentType: source.contentType, body };
    loaded.set(name, asset);
  }
  return asset;
}
