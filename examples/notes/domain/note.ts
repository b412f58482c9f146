/** A note of a tenant: a title and an optional body, written by a member. */
export interface Note {
  readonly id: string;
  readonly tenantId: string;
  readonly title: string;
  /** Empty when none was given. */
  readonly body: string;
  readonly createdBy: string;
  readonly createdAt: Date;
}

export const NOTE_TITLE_MAX = 200;
export const NOTE_BODY_MAX = 10_000;
