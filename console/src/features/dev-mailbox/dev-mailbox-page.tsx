import { ApiError, call } from '../../api/client';
import { DateTime } from '../../shared/date-time';
import { ErrorMessage } from '../../shared/feedback';
import { Screen } from '../../shared/screen';
import { useResource } from '../../shared/use-resource';

/**
 * What the service's development mailbox holds (GET /api/v1/dev/mailbox), for following an e-mailed
 * link without a mail server. That route exists only where the development mailbox is the mailer,
 * never in production: anywhere else it is an unknown route, and this page says so.
 */
export function DevMailboxPage() {
  const mailbox = useResource(() => call('get', '/api/v1/dev/mailbox', null));
  const absent = mailbox.error instanceof ApiError && mailbox.error.status === 404;
  return (
    <Screen title="Development mailbox">
      {absent ? (
        <p role="alert" className="error">
          The development mailbox is not available here: this service sends its e-mail for real, or not at all.
        </p>
      ) : (
        <>
          <p>
            The messages this service would have sent, newest first. It keeps them in memory, outside production only,
            and forgets them when it restarts.
          </p>
          <button type="button" onClick={mailbox.reload}>Refresh</button>
          <ErrorMessage error={mailbox.error} />
        </>
      )}
      {mailbox.data && (mailbox.data.messages.length === 0 ? <p>No message yet.</p> : (
        <ol className="mailbox">
          {mailbox.data.messages.map((message, index) => (
            <li key={`${message.sent_at}-${index}`}>
              <article aria-label={`${message.subject}, to ${message.to}`}>
                <h2>{message.subject}</h2>
                <dl className="facts">
                  <dt>To</dt><dd>{message.to}</dd>
                  <dt>Sent</dt><dd><DateTime iso={message.sent_at} /></dd>
                  {message.link && <><dt>Link</dt><dd><a href={message.link}>{message.link}</a></dd></>}
                </dl>
                <pre className="mail-text">{message.text}</pre>
              </article>
            </li>
          ))}
        </ol>
      ))}
    </Screen>
  );
}
