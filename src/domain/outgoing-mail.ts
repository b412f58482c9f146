/**
 * A message waiting in the outbox: written in the same transaction as the change that causes it,
 * rendered and sent after commit by the delivery worker. It names its template and the template's
 * input, not the finished text, so the input (which may hold a link's token) can be wiped once the
 * message has gone out.
 */
export type MailInput = Readonly<Record<string, string | number | boolean | null>>;

export interface OutgoingMail {
  readonly id: string;
  /** The tenant the message concerns (its audit events go to that tenant's trail). */
  readonly tenantId: string;
  /** The template's name. */
  readonly kind: string;
  /** Normalised address. */
  readonly recipient: string;
  readonly input: MailInput;
  readonly createdAt: Date;
}

/** A message a worker has claimed for one attempt. `attempt` counts from 1. */
export interface ClaimedMail extends OutgoingMail {
  readonly attempt: number;
}

/** How an attempt ended. A retry names when the next attempt may start. */
export type MailOutcome =
  | { readonly status: 'sent'; readonly at: Date }
  | { readonly status: 'retry'; readonly at: Date; readonly nextAttemptAt: Date; readonly error: string }
  | { readonly status: 'failed'; readonly at: Date; readonly error: string };
