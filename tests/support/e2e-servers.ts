import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import {
  E2E_APP_URL,
  E2E_CONTROL_PORT,
  E2E_OIDC_CLIENT_ID,
  E2E_OIDC_CLIENT_SECRET,
  E2E_OIDC_PORT,
  E2E_OIDC_PROVIDER_ID,
} from '../e2e/support/env';
import { startOidcProvider } from './oidc';
import { startSmtpServer, type Received } from './smtp';

// The outside world of the end-to-end tests, started by Playwright before the app:
//  - a real SMTP server receiving Quarry's mails (one-time codes, reset links),
//  - a real OpenID Connect provider (oidc-provider) with one confidential client for Quarry,
//  - a small HTTP control API so tests (and scripts/e2e-start.mjs) can read what arrived:
//      GET /health                        {ok, smtpUrl, issuer}
//      GET /mails?to=ADDRESS              {messages: [...]} every mail to ADDRESS, oldest first
//      GET /mails/next?to=ADDRESS&timeout=MS   the oldest mail to ADDRESS not handed out before,
//                                          waiting up to MS (default 10000); 404 {detail} if none

const smtp = await startSmtpServer();
const oidc = await startOidcProvider({
  port: E2E_OIDC_PORT,
  clients: [
    {
      clientId: E2E_OIDC_CLIENT_ID,
      clientSecret: E2E_OIDC_CLIENT_SECRET,
      redirectUris: [`${E2E_APP_URL}/oauth/${E2E_OIDC_PROVIDER_ID}`],
    },
  ],
});

const view = (m: Received) => ({
  to: m.to,
  from: m.from,
  subject: m.subject,
  text: m.text,
  html: m.html ?? null,
  receivedAt: m.receivedAt,
});

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store' });
  res.end(JSON.stringify(body));
}

async function handle(req: IncomingMessage, res: ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://127.0.0.1');
  if (req.method !== 'GET') return send(res, 405, { detail: 'Only GET is supported.' });
  if (url.pathname === '/health') return send(res, 200, { ok: true, smtpUrl: smtp.url, issuer: oidc.issuer });
  const to = (url.searchParams.get('to') ?? '').trim().toLowerCase();
  if (url.pathname === '/mails') {
    const messages = smtp.messages.filter((m) => !to || m.to.includes(to)).map(view);
    return send(res, 200, { messages });
  }
  if (url.pathname === '/mails/next') {
    if (!to) return send(res, 400, { detail: 'Query parameter "to" is required.' });
    const timeout = Math.min(Number(url.searchParams.get('timeout') ?? '10000') || 10_000, 60_000);
    try {
      return send(res, 200, view(await smtp.waitForMessage(to, timeout)));
    } catch (e) {
      return send(res, 404, { detail: e instanceof Error ? e.message : String(e) });
    }
  }
  return send(res, 404, { detail: `No such control endpoint: ${url.pathname}` });
}

const control = createServer((req, res) => {
  handle(req, res).catch((e: unknown) => send(res, 500, { detail: String(e) }));
});
await new Promise<void>((resolve, reject) => {
  control.once('error', reject);
  control.listen(E2E_CONTROL_PORT, '127.0.0.1', resolve);
});

console.log(`[e2e-servers] SMTP ${smtp.url}, OpenID provider ${oidc.issuer}, control http://127.0.0.1:${E2E_CONTROL_PORT}`);

let closing = false;
async function shutdown() {
  if (closing) return;
  closing = true;
  control.closeAllConnections();
  await Promise.allSettled([new Promise((r) => control.close(r)), smtp.close(), oidc.close()]);
  process.exit(0);
}
process.on('SIGTERM', () => void shutdown());
process.on('SIGINT', () => void shutdown());
