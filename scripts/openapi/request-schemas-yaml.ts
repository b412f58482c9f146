/**
 * Rewrites an OpenAPI document's request schemas and query parameters, as YAML text, with what the
 * DTOs derive (src/adapters/http/docs/request-schemas.ts), leaving every other line as it was:
 * comments, order and the hand-written response schemas. Only the blocks it owns are replaced:
 * `components.schemas.<name>` for each body, and the query parameters of each operation with a
 * query DTO (its path parameters are kept). A block that is missing is added.
 */
import { dump, load } from 'js-yaml';
import { queryParameters, requestBodySchema, type JsonSchema, type RequestShapes } from '../../src/adapters/http/docs/request-schemas';

/** The documents' line width: long descriptions are folded to it (`>-`), which reads back as one line. */
const WIDTH = 100;

type Lines = string[];

const isScalar = (value: unknown): boolean => value === null || typeof value !== 'object';

const indentOf = (line: string): number => line.length - line.trimStart().length;

const isContent = (line: string): boolean => line.trim() !== '' && !line.trimStart().startsWith('#');

function keyText(key: string): string {
  return dump({ [key]: null }).trimEnd().replace(/: null$/, '');
}

function emitEntry(key: string, value: unknown, indent: number): Lines {
  const pad = ' '.repeat(indent);
  if (Array.isArray(value) && value.every(isScalar)) {
    const flow = dump({ [key]: value }, { flowLevel: 1, lineWidth: -1 }).trimEnd();
    if (indent + flow.length <= WIDTH) return [pad + flow];
  }
  if (Array.isArray(value)) return [`${pad}${keyText(key)}:`, ...value.flatMap((item) => emitItem(item, indent + 2))];
  if (!isScalar(value)) return [`${pad}${keyText(key)}:`, ...emitMapping(value as JsonSchema, indent + 2)];
  return dump({ [key]: value }, { lineWidth: Math.max(40, WIDTH - indent) }).trimEnd().split('\n').map((line) => pad + line);
}

function emitItem(item: unknown, indent: number): Lines {
  const pad = ' '.repeat(indent);
  if (isScalar(item) || Array.isArray(item)) return [`${pad}- ${dump(item, { flowLevel: 0, lineWidth: -1 }).trimEnd()}`];
  const [first = '', ...rest] = emitMapping(item as JsonSchema, indent + 2);
  return [`${pad}- ${first.trimStart()}`, ...rest];
}

function emitMapping(mapping: JsonSchema, indent: number): Lines {
  return Object.entries(mapping).flatMap(([key, value]) => emitEntry(key, value, indent));
}

/** The lines [from, to) of the entry `key:` at `indent` between `start` and `end`, trailing blank lines left out. */
function findEntry(lines: Lines, start: number, end: number, indent: number, key: string): { from: number; to: number } | undefined {
  const head = `${' '.repeat(indent)}${key}:`;
  const from = lines.slice(start, end).findIndex((line) => line === head || line.startsWith(`${head} `));
  if (from === -1) return undefined;
  let to = start + from + 1;
  while (to < end && !(isContent(lines[to]!) && indentOf(lines[to]!) <= indent)) to += 1;
  while (to > start + from + 1 && lines[to - 1]!.trim() === '') to -= 1;
  return { from: start + from, to };
}

function sectionEnd(lines: Lines, from: number, indent: number): number {
  let to = from + 1;
  while (to < lines.length && !(isContent(lines[to]!) && indentOf(lines[to]!) <= indent)) to += 1;
  while (lines[to - 1]!.trim() === '') to -= 1;
  return to;
}

function required<T>(value: T | undefined, file: string, what: string): T {
  if (value === undefined) throw new Error(`${file} has no ${what}`);
  return value;
}

function replaceSchema(lines: Lines, file: string, name: string, schema: JsonSchema): void {
  const components = required(findEntry(lines, 0, lines.length, 0, 'components'), file, 'components');
  const schemas = required(findEntry(lines, components.from, components.to, 2, 'schemas'), file, 'components.schemas');
  const block = [`    ${keyText(name)}:`, ...emitMapping(schema, 6)];
  const entry = findEntry(lines, schemas.from, schemas.to, 4, keyText(name));
  if (entry) lines.splice(entry.from, entry.to - entry.from, ...block);
  else lines.splice(schemas.to, 0, ...block);
}

function replaceQuery(lines: Lines, file: string, operationId: string, parameters: JsonSchema[]): void {
  const at = lines.findIndex((line) => line.trim() === `operationId: ${operationId}`);
  if (at === -1) throw new Error(`${file} has no operation ${operationId}`);
  const indent = indentOf(lines[at]!);
  let start = at;
  while (start > 0 && !(isContent(lines[start - 1]!) && indentOf(lines[start - 1]!) < indent)) start -= 1;
  const end = sectionEnd(lines, start - 1, indent - 2);
  const entry = findEntry(lines, start, end, indent, 'parameters');
  const existing = entry ? (load(lines.slice(entry.from, entry.to).join('\n')) as { parameters?: JsonSchema[] }).parameters ?? [] : [];
  const kept = existing.filter((parameter) => parameter['in'] !== 'query');
  const block = emitEntry('parameters', [...kept, ...parameters], indent);
  if (entry) {
    lines.splice(entry.from, entry.to - entry.from, ...block);
    return;
  }
  const responses = findEntry(lines, start, end, indent, 'responses');
  lines.splice(responses ? responses.from : end, 0, ...block);
}

/** `text` (an OpenAPI document in YAML) with the request schemas and query parameters `shapes` derive. */
export function withRequestSchemas(text: string, file: string, shapes: RequestShapes): string {
  const lines = text.split('\n');
  for (const [name, dto] of Object.entries(shapes.bodies)) replaceSchema(lines, file, name, requestBodySchema(dto));
  for (const [operationId, dto] of Object.entries(shapes.queries)) replaceQuery(lines, file, operationId, queryParameters(dto));
  return lines.join('\n');
}
