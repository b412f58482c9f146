import type { ServerResponse } from 'node:http';
import { DomainError } from '../../../domain/errors';
import { describeError, type ErrorTable } from '../errors/error-mapper';
import { HttpError } from '../errors/http-error';
import type { NodeErrorHandler, NodeRequest } from '../fast-path/node-handler';
import { sendJson } from '../fast-path/send-json';

export const SCIM_CONTENT_TYPE = 'application/scim+json; charset=utf-8';
export const SCIM_ERROR_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:Error';

/** The error kinds of RFC 7644, section 3.12, that this service answers. */
export type ScimType = 'invalidFilter' | 'invalidValue' | 'invalidSyntax' | 'uniqueness' | 'mutability';

/** A refusal the SCIM adapter decides on its own (a filter, a value or a patch it cannot take), with its scimType. */
export class ScimError extends HttpError {
  constructor(status: number, message: string, readonly scimType: ScimType) {
    super(status, message);
  }
}

/** The domain's refusals that SCIM names a kind for. */
const SCIM_TYPES: Readonly<Record<string, ScimType>> = {
  EMAIL_ALREADY_REGISTERED: 'uniqueness',
  SCIM_USER_NAME_IMMUTABLE: 'mutability',
};

function scimTypeOf(err: unknown, status: number): ScimType | undefined {
  if (err instanceof ScimError) return err.scimType;
  if (err instanceof DomainError) return SCIM_TYPES[err.code] ?? (status === 400 ? 'invalidValue' : undefined);
  return status === 400 ? 'invalidSyntax' : undefined; // the body could not be read as a JSON object
}

/** A SCIM answer: JSON under SCIM's media type. */
export function sendScim(res: ServerResponse, status: number, body: unknown, headers?: Readonly<Record<string, string>>): void {
  sendJson(res, status, body, headers, SCIM_CONTENT_TYPE);
}

/** SCIM's error body (RFC 7644, section 3.12): the status as a string, the kind when there is one, and the service's own message. */
export function scimErrorBody(status: number, detail: string, scimType?: ScimType) {
  return { schemas: [SCIM_ERROR_SCHEMA], status: String(status), ...(scimType ? { scimType } : {}), detail };
}

/**
 * The scim group's error handler, in place of the one error mapper's answer: the same status and
 * message (describeError), in SCIM's format, so an identity provider can read every refusal under
 * the SCIM base. What cannot be explained is logged and answered as an opaque 500.
 */
export function scimErrors(log: (err: unknown, req?: NodeRequest) => void, errors: ErrorTable): NodeErrorHandler {
  return (err, req, res, next) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    const described = describeError(err, errors);
    if (!described || (described.status >= 500 && !(err instanceof DomainError))) log(err, req);
    const status = described?.status ?? 500;
    sendScim(res, status, scimErrorBody(status, described?.body.error ?? 'Internal server error', scimTypeOf(err, status)), described?.headers);
  };
}
