import { isEmail } from 'class-validator';
import { MAX_EMAIL_LENGTH } from '../../../domain/email';
import { hiddenCharacterIn } from '../../../domain/visible-text';
import { ScimError } from './scim-errors';
import { DEFAULT_PAGE, MAX_PAGE, PATCH_OP_SCHEMA, USER_SCHEMA } from './scim-resources';

/**
 * SCIM's request bodies taken apart by hand (not by a DTO): a provider sends attributes this service
 * does not keep (name, displayName, externalId, an enterprise extension...), which RFC 7643 lets a
 * service ignore, so only what it keeps is read and checked.
 */

function invalid(message: string): ScimError {
  return new ScimError(400, message, 'invalidValue');
}

function assertSchema(body: Record<string, unknown>, schema: string): void {
  const { schemas } = body;
  if (schemas === undefined) return;
  if (!Array.isArray(schemas) || !schemas.includes(schema)) throw invalid(`schemas must include ${schema}`);
}

/** A boolean; also "True" or "False" as text, which Entra ID sends for `active`. */
function booleanOf(value: unknown, name: string): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'string' && /^(true|false)$/i.test(value)) return value.toLowerCase() === 'true';
  throw invalid(`${name} must be a boolean`);
}

function userNameOf(value: unknown): string {
  if (typeof value !== 'string' || value.length > MAX_EMAIL_LENGTH || hiddenCharacterIn(value) !== null || !isEmail(value.trim())) {
    throw invalid('userName must be an e-mail address');
  }
  return value;
}

/** POST and PUT /Users: the address (userName) and whether the member is active (true unless said). */
export function scimUserOf(body: Record<string, unknown>): { email: string; active: boolean } {
  assertSchema(body, USER_SCHEMA);
  if (body['userName'] === undefined) throw invalid('userName is required');
  return { email: userNameOf(body['userName']), active: body['active'] === undefined ? true : booleanOf(body['active'], 'active') };
}

/**
 * PATCH /Users/:id (a PatchOp): what it asks of `active`, as Okta (`replace` with `value:
 * {active}`) and Entra ID (`Replace` with `path: "active"`) send it; undefined when no operation
 * touches it. Operations on attributes this service does not keep are ignored, as a PUT's are.
 */
export function patchedActive(body: Record<string, unknown>): boolean | undefined {
  assertSchema(body, PATCH_OP_SCHEMA);
  const operations = body['Operations'];
  if (!Array.isArray(operations) || operations.length === 0) throw invalid('Operations must be a non-empty list');
  let active: boolean | undefined;
  for (const operation of operations as unknown[]) {
    if (typeof operation !== 'object' || operation === null) throw invalid('each operation must be an object');
    const { op, path, value } = operation as Record<string, unknown>;
    if (typeof op !== 'string' || !/^(add|replace|remove)$/i.test(op)) throw invalid('op must be add, replace or remove');
    if (path !== undefined && typeof path !== 'string') throw invalid('path must be a string');
    const touchesActive = path === undefined
      ? typeof value === 'object' && value !== null && 'active' in value
      : path.toLowerCase() === 'active';
    if (!touchesActive) continue;
    if (op.toLowerCase() === 'remove') throw invalid('active cannot be removed');
    active = booleanOf(path === undefined ? (value as Record<string, unknown>)['active'] : value, 'active');
  }
  return active;
}

const USER_NAME_EQ = /^\s*userName\s+eq\s+"((?:[^"\\]|\\.)*)"\s*$/i;

/** `filter=userName eq "..."`, the one filter this service answers; anything else is invalidFilter. */
export function userNameFilter(filter: unknown): string | undefined {
  if (filter === undefined) return undefined;
  const match = typeof filter === 'string' ? USER_NAME_EQ.exec(filter) : null;
  if (!match) throw new ScimError(400, 'Only the filter userName eq "<address>" is supported', 'invalidFilter');
  try {
    return JSON.parse(`"${match[1]}"`) as string;
  } catch {
    throw new ScimError(400, 'The filter\'s value is not a valid string', 'invalidFilter');
  }
}

function wholeNumber(value: unknown, name: string, fallback: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'string' || !/^-?\d{1,9}$/.test(value)) throw invalid(`${name} must be an integer`);
  return Number(value);
}

/** startIndex (1-based; below 1 counts as 1) and count (0 to MAX_PAGE; more is cut to it), as RFC 7644 section 3.4.2.4 reads them. */
export function pageOf(query: Record<string, unknown>): { startIndex: number; count: number } {
  const startIndex = Math.max(1, wholeNumber(query['startIndex'], 'startIndex', 1));
  const count = Math.min(MAX_PAGE, Math.max(0, wholeNumber(query['count'], 'count', DEFAULT_PAGE)));
  return { startIndex, count };
}
