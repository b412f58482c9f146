export interface IdGenerator {
  /** A new random UUID. */
  newId(): string;
  /**
   * A new UUID that sorts after every one this process made before (UUIDv7: time first, then a
   * counter within the millisecond), so records made in one millisecond keep their order.
   */
  newOrderedId(): string;
}
