import { spawn } from 'node:child_process';
import { resolve } from 'node:path';

export interface CommandResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const ROOT = resolve(__dirname, '..', '..');

/**
 * A command run from the repository's root with only the environment given (plus PATH and HOME),
 * as an operator would run it; resolves with its exit code and everything it printed.
 */
export function runCommand(file: string, args: readonly string[], env: Record<string, string>): Promise<CommandResult> {
  return new Promise((done) => {
    const child = spawn(file, [...args], {
      cwd: ROOT,
      env: { PATH: process.env['PATH'] ?? '', HOME: process.env['HOME'] ?? '', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => { stdout += text; });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr += text; });
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}
