/**
 * The role as a run-time parameter of the connection's start-up message (`-c role=…`, what SET ROLE
 * sets), so the server switches before the connection is handed out: no statement per new
 * connection, and a login that may not take the role is refused at connect, like a wrong password,
 * instead of leaving a half-set-up connection in the pool. Spaces and backslashes are escaped with
 * a backslash, as the start-up options are split on unescaped spaces.
 */
export function roleOption(role: string): string {
  return `-c role=${role.replace(/[\\\s]/g, (c) => `\\${c}`)}`;
}
