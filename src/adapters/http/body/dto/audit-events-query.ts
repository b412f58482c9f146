import { Type } from 'class-transformer';
import { IsInt, IsString, IsUUID, Matches, Max, MaxLength, Min } from 'class-validator';
import { DEFAULT_AUDIT_PAGE, MAX_AUDIT_PAGE } from '../../../../application/audit/list-audit-events';
import { AUDIT_ACTION_PATTERN, type AuditAction, type ModuleAuditAction } from '../../../../domain/audit-event';
import { HttpError } from '../../errors/http-error';
import { Described } from './described';
import { OptionalField } from './optional-field';

/**
 * An action filter must name an action the trail knows here: identity's and the installed modules'
 * (ListAuditEvents.actions). The DTO checks its form; this, once validated, its membership, with
 * class-validator's own wording so both read alike.
 */
export function assertKnownAuditAction(actions: readonly string[], action: string | undefined): void {
  if (action === undefined || actions.includes(action)) return;
  const message = `action must be one of the following values: ${actions.join(', ')}`;
  throw new HttpError(400, message, [{ field: 'action', message }]);
}

/** GET /audit-events?limit=&cursor=&action=&actor= : each at most once, nothing else. */
export class AuditEventsQuery {
  @OptionalField()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_AUDIT_PAGE)
  @Described('Events per page.', { default: DEFAULT_AUDIT_PAGE })
  limit?: number;

  @OptionalField()
  @IsString()
  @MaxLength(200)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'cursor must be a cursor returned by this endpoint' })
  @Described('The `next_cursor` of the previous page, as given.')
  cursor?: string;

  // By form here; assertKnownAuditAction then checks it against the actions installed here.
  @OptionalField()
  @IsString()
  @MaxLength(100)
  @Matches(AUDIT_ACTION_PATTERN, { message: 'action must be an audit action, such as login.failed' })
  @Described(
    "Only events of this action: one of `AuditAction` (the installed product modules' actions included); any other "
    + 'value is a 400 naming them.',
    { examples: ['login.failed'] },
  )
  action?: AuditAction | ModuleAuditAction;

  @OptionalField()
  @IsUUID('all')
  @Described('Only events whose actor is this user id.')
  actor?: string;
}
