import { SMTPServer } from 'smtp-server';
import PostalMime from 'postal-mime';

// A real SMTP server for tests (vitest and Playwright alike: no test-runner imports). It listens
// on 127.0.0.1 on a free port, without TLS or authentication, and keeps every message it gets.

export type Received = {
  /** Envelope recipients, lowercased. */
  to: string[];
  from: string;
  subject: string;
  text: string;
  html?: string;
  raw: string;
  receivedAt: number;
};

export type TestSmtpServer = {
  /** smtp://127.0.0.1:<port>, ready for SMTP_URL. */
  url: string;
  port: number;
  messages: Received[];
  /**
   * The oldest message to `to` that no earlier call returned, waiting for it when needed. Each
   * message is handed out once, so two sign-ins in a row give their two mails in order.
   */
  waitForMessage(to: string, timeoutMs?: number): Promise<Received>;
  close(): Promise<void>;
};

export async function startSmtpServer(): Promise<TestSmtpServer> {
  const messages: Received[] = [];
  const handedOut = new Set<Received>();
  const waiters = new Set<() => void>();

  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', callback);
      stream.on('end', () => {
        const raw = Buffer.concat(chunks);
        PostalMime.parse(raw)
          .then((email) => {
            messages.push({
              to: session.envelope.rcptTo.map((r) => r.address.toLowerCase()),
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              subject: email.subject ?? '',
              text: email.text ?? '',
              html: email.html ?? undefined,
              raw: raw.toString('utf8'),
              receivedAt: Date.now(),
            });
            for (const wake of waiters) wake();
            callback();
          })
          .catch((e: unknown) => callback(e instanceof Error ? e : new Error(String(e))));
      });
    },
  });

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.server.address();
      if (address && typeof address === 'object') resolve(address.port);
      else reject(new Error('SMTP test server has no port'));
    });
  });

  const take = (to: string): Received | undefined => {
    const m = messages.find((x) => !handedOut.has(x) && x.to.includes(to.toLowerCase()));
    if (m) handedOut.add(m);
    return m;
  };

  return {
    url: `smtp://127.0.0.1:${port}`,
    port,
    messages,
    waitForMessage(to, timeoutMs = 10_000) {
      const now = take(to);
      if (now) return Promise.resolve(now);
      return new Promise<Received>((resolve, reject) => {
        const wake = () => {
          const m = take(to);
          if (!m) return;
          clearTimeout(timer);
          waiters.delete(wake);
          resolve(m);
        };
        const timer = setTimeout(() => {
          waiters.delete(wake);
          reject(new Error(`No mail to ${to} within ${timeoutMs} ms (got ${messages.length} for others)`));
        }, timeoutMs);
        waiters.add(wake);
      });
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The 6-digit code on its own line in a mail. */
export function codeIn(message: Received): string {
  const code = /^(\d{6})$/m.exec(message.text)?.[1];
  if (!code) throw new Error(`No 6-digit code in mail "${message.subject}":\n${message.text}`);
  return code;
}
