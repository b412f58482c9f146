/**
 * The database could not be reached or did not answer in time (connection refused or lost, pool
 * or statement timeout, server shutting down). Storage adapters throw it in place of the driver's
 * error, so that callers can tell an outage, which is worth retrying, from a bug. Nothing the
 * failed work wrote is kept: a transaction that loses its connection is rolled back by the server.
 * The HTTP adapter answers it 503 with Retry-After.
 */
export class StorageUnavailable extends Error {
  constructor(cause: unknown) {
    super('The database is unavailable', { cause });
    this.name = 'StorageUnavailable';
  }
}
