import type { ChangePosition } from '../../domain/change-position';

/** How far this instance has followed the change log (domain/change-position.ts). */
export interface ChangePositions {
  /** Every change at or before this position is reflected in what this instance answers from now on. */
  readonly current: ChangePosition;
  /**
   * Resolves once every change up to `position` is applied, reading the log if need be, with the
   * instance's position then. Lower than asked only when the log holds no such position (a
   * position of another database, or of one since restored). Throws when storage is unreachable.
   */
  reach(position: ChangePosition): Promise<ChangePosition>;
}
