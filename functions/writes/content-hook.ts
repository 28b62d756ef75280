/**
 * POST /api/v1/hooks/content: the content repository's push webhook. It tells this instance to
 * pull now rather than at the next interval. Signed like GitHub's and Gitea's webhooks:
 * `X-Hub-Signature-256: sha256=<HMAC-SHA256 of the raw body>` with CONTENT_WEBHOOK_SECRET.
 * The body itself is not used: whatever was pushed, the instance fetches the branch it follows.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { contentRemoteOf } from '../config.ts';
import type { Deps } from '../deps.ts';
import { answerResponse, jsonAnswer } from '../http/answer.ts';
import { ApiError } from '../http/errors.ts';
import { readRawBody } from '../http/request-body.ts';

/** A push event for a few commits is a few KB; larger bodies are refused (413). */
const MAX_BODY_BYTES = 1024 * 1024;

export async function postContentHook(request: Request, deps: Pick<Deps, 'config' | 'content'>): Promise<Response> {
  const secret = deps.config.contentWebhookSecret;
  if (!secret || !contentRemoteOf(deps.config)) {
    throw new ApiError(404, 'not_found', 'No content webhook is configured on this instance.', { hint: 'Set CONTENT_REMOTE (or CONTENT_GIT_URL) and CONTENT_WEBHOOK_SECRET.' });
  }
  const body = await readRawBody(request, MAX_BODY_BYTES);
  if (!validSignature(request.headers.get('x-hub-signature-256'), body, secret)) {
    throw new ApiError(401, 'unauthorized', 'The webhook signature does not match.', { hint: 'Sign the raw body with HMAC-SHA256 and the shared secret: X-Hub-Signature-256: sha256=<hex>.' });
  }
  try {
    const { commit, changed } = await deps.content.pull();
    return answerResponse(request, jsonAnswer(200, { success: true, commit, changed }, { 'Cache-Control': 'no-store' }));
  } catch {
    throw new ApiError(503, 'service_unavailable', 'The content remote could not be read.', {
      hint: 'The instance keeps serving its current content and retries on its interval.',
      headers: { 'Retry-After': '30' },
    });
  }
}

// --- internal ---

function validSignature(header: string | null, body: Buffer, secret: string): boolean {
  const given = Buffer.from(header ?? '');
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  return given.length === expected.length && timingSafeEqual(given, expected);
}
