import { Type } from 'class-transformer';
import { IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_AUDIT_PAGE } from '../../../application/list-audit-events';
import { AUDIT_ACTION_PATTERN, type AuditAction, type ModuleAuditAction } from '../../../domain/audit-event';
import { OptionalField } from './optional-field';

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

  // By form, not from a list: the actions of the product modules installed are part of the trail
  // too, and an action nothing has recorded simply lists no events.
  @OptionalField()
  @IsString()
  @MaxLength(100)
  @Matches(AUDIT_ACTION_PATTERN, { message: 'action must be an audit action, such as login.failed' })
  action?: AuditAction | ModuleAuditAction;

  @OptionalField()
  @IsUUID('all')
  actor?: string;
}
