export interface IdGenerator {
  /** A new UUID. */
  newId(): string;
}
