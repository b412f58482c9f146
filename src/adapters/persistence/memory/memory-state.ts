import type { ApiKey } from '../../../domain/api-key';
import type { AuditEvent } from '../../../domain/audit-event';
import type { Invite } from '../../../domain/invite';
import type { Tenant } from '../../../domain/tenant';
import type { User } from '../../../domain/user';

/** A user row as stored: removal keeps the row and marks it, as the SQL table does. */
export interface StoredUser extends User {
  readonly removedAt: Date | null;
}

/** Records are immutable values, so copying the maps is a full snapshot of the database. */
export interface MemoryState {
  readonly tenants: Map<string, Tenant>;
  readonly users: Map<string, StoredUser>;
  readonly apiKeys: Map<string, ApiKey>;
  readonly invites: Map<string, Invite>;
  readonly auditEvents: Map<string, AuditEvent>;
}

export function emptyState(): MemoryState {
  return { tenants: new Map(), users: new Map(), apiKeys: new Map(), invites: new Map(), auditEvents: new Map() };
}

export function snapshot(state: MemoryState): MemoryState {
  return {
    tenants: new Map(state.tenants),
    users: new Map(state.users),
    apiKeys: new Map(state.apiKeys),
    invites: new Map(state.invites),
    auditEvents: new Map(state.auditEvents),
  };
}
