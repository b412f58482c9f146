import { Type } from 'class-transformer';
import { IsIn, IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { MAX_AUDIT_PAGE } from '../../../application/list-audit-events';
import { AUDIT_ACTIONS, type AuditAction } from '../../../domain/audit-event';
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

  @OptionalField()
  @IsIn(AUDIT_ACTIONS)
  action?: AuditAction;

  @OptionalField()
  @IsUUID('all')
  actor?: string;
}
