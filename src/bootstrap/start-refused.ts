/**
 * A start that cannot go on for a reason the operator can fix (a port taken, a folder in use): the
 * message says what and how, and is logged as one line, without a stack.
 */
export class StartRefused extends Error {
  override readonly name = 'StartRefused';
}

/** What a server's listen failure means to the operator, when it is one they can fix. */
export function describeListenFailure(error: unknown, what: string, port: number, host: string, variable: string, remedy: string): Error {
  const code = (error as { code?: unknown }).code;
  if (code === 'EADDRINUSE') {
    return new StartRefused(`${what}: port ${port} on ${host} is already in use (another Portcullis on this host?); set ${variable} to a free port${remedy}`);
  }
  if (code === 'EACCES') return new StartRefused(`${what}: may not listen on port ${port} on ${host}; set ${variable} to a port above 1023`);
  return error instanceof Error ? error : new Error(String(error));
}
