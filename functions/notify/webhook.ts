/**
 * A Slack-compatible incoming webhook (NOTIFY_WEBHOOK_URL): one POST of `{ "text": … }`, the
 * shape Slack, Mattermost, Rocket.Chat and Discord's `/slack` endpoint all take.
 */

/**
 * Post `text`; resolves when the webhook answered 2xx, throws otherwise (a refusal, an
 * unreachable host, no answer within `timeoutMs`).
 * @example await postToWebhook('https://hooks.slack.com/services/…', 'New deal submission: Acme', 10_000)
 */
export async function postToWebhook(url: string, text: string, timeoutMs: number): Promise<void> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ text }),
    signal: AbortSignal.timeout(timeoutMs),
    // The URL is a secret of its own: no redirect takes the message elsewhere.
    redirect: 'error',
  });
  await response.body?.cancel();
  // Never the URL in the message: it is the webhook's only credential, and this ends up in logs.
  if (!response.ok) throw new Error(`the webhook answered ${response.status}`);
}
