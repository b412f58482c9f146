import { CopyButton } from '../../shared/copy-button';
import { SecretPanel } from '../../shared/secret-panel';

/** The codes as a text file: one a line, with a word on what they are. */
export function recoveryCodesText(codes: readonly string[], account: string): string {
  return [
    `Portcullis recovery codes for ${account}`,
    'Each code signs you in once in place of your authenticator app. Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n');
}

/** Recovery codes, shown this once: to copy or download, never shown again. */
export function RecoveryCodesPanel({ codes, account, onDone }: { codes: readonly string[]; account: string; onDone: () => void }) {
  const text = recoveryCodesText(codes, account);
  return (
    <SecretPanel title="Your recovery codes" onDone={onDone}>
      <p>
        Each code signs you in once if you lose your authenticator app. Keep them somewhere safe:
        you will not see them again (a new set replaces them all).
      </p>
      <ol className="recovery-codes" aria-label="Recovery codes">
        {codes.map((code) => <li key={code}><code>{code}</code></li>)}
      </ol>
      <p className="row-actions">
        <CopyButton text={codes.join('\n')} label="Copy the recovery codes" />
        <a className="button" download="portcullis-recovery-codes.txt" href={`data:text/plain;charset=utf-8,${encodeURIComponent(text)}`}>
          Download as a text file
        </a>
      </p>
    </SecretPanel>
  );
}
