import { Type } from 'class-transformer';
import { IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_AUDIT_PAGE } from '../../../../application/audit/list-audit-events';
import { AUDIT_ACTION_PATTERN, type AuditAction, type ModuleAuditAction } from '../../../../domain/audit-event';
import type { RequestHandler } from 'express';
import { HttpError } from '../../errors/http-error';
import { queryOf } from '../validate-query';
import { OptionalField } from './optional-field';

/**
 * An action filter must name an action the trail knows here: identity's and the installed modules'
 * (ListAuditEvents.actions). The DTO checks its form; this, once validated, its membership, with
 * class-validator's own wording so both read alike.
 */
export function knownAuditAction(actions: readonly string[]): RequestHandler {
  const known = new Set(actions);
  const message = `action must be one of the following values: ${actions.join(', ')}`;
  return (_req, res, next) => {
    const { action } = queryOf<AuditEventsQuery>(res);
    if (action !== undefined && !known.has(action)) throw new HttpError(400, message, [{ field: 'action', message }]);
    next();
  };
}

/** GET /audit-events?limit=&cursor=&action=&actor= : each at most once, nothing else. */
export class AuditEventsQuery {
  @OptionalField()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_AUDIT_PAGE)
  limit?: number;

  @OptionalField()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a cursor returned by this endpoint' })
  cursor?: string;

  // By form here; knownAuditAction then checks it against the actions installed here.
  @OptionalField()
  @IsString()
  @MaxLength(100)
  @Matches(AUDIT_ACTION_PATTERN, { message: 'action must be an audit action, such as login.failed' })
  action?: AuditAction | ModuleAuditAction;

  @OptionalField()
  @IsUUID('all')
  actor?: string;
}
