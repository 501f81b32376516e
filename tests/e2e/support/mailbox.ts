import { E2E_CONTROL_URL } from './env';

// Mails received by the test SMTP server, read through the control API of
// tests/support/e2e-servers.ts.

export type Mail = {
  to: string[];
  from: string;
  subject: string;
  text: string;
  html: string | null;
  /** ms since epoch, by the server's clock (same machine). */
  receivedAt: number;
};

export type Mailbox = {
  /** Every mail to `to`, oldest first. */
  messages(to: string): Promise<Mail[]>;
  /** The oldest mail to `to` that no earlier nextMessage/nextCode returned, waiting for it. */
  nextMessage(to: string, options?: { timeoutMs?: number }): Promise<Mail>;
  /** The 6-digit code of nextMessage(to). */
  nextCode(to: string, options?: { timeoutMs?: number }): Promise<string>;
  /**
   * The 6-digit code of the newest mail to `to` received at or after `after` (ms since epoch,
   * default: any time), waiting until such a mail arrives.
   */
  latestCode(to: string, options?: { after?: number; timeoutMs?: number }): Promise<string>;
};

/** The code in a mail: a 6-digit number on its own line, else the first 6-digit number. */
export function extractCode(mail: Pick<Mail, 'text' | 'subject'>): string {
  const own = /^\s*(\d{6})\s*$/m.exec(mail.text)?.[1];
  const any = /(?<!\d)(\d{6})(?!\d)/.exec(mail.text)?.[1];
  const code = own ?? any;
  if (!code) throw new Error(`No 6-digit code in the mail "${mail.subject}":\n${mail.text}`);
  return code;
}

async function getJson<T>(path: string): Promise<{ status: number; body: T }> {
  const response = await fetch(`${E2E_CONTROL_URL}${path}`);
  return { status: response.status, body: (await response.json()) as T };
}

export function createMailbox(): Mailbox {
  const messages = async (to: string) => {
    const { body } = await getJson<{ messages: Mail[] }>(`/mails?${new URLSearchParams({ to })}`);
    return body.messages;
  };
  const nextMessage = async (to: string, options: { timeoutMs?: number } = {}) => {
    const query = new URLSearchParams({ to, timeout: String(options.timeoutMs ?? 15_000) });
    const { status, body } = await getJson<Mail & { detail?: string }>(`/mails/next?${query}`);
    if (status !== 200) throw new Error(body.detail ?? `No mail to ${to}`);
    return body;
  };
  return {
    messages,
    nextMessage,
    nextCode: async (to, options) => extractCode(await nextMessage(to, options)),
    async latestCode(to, options = {}) {
      const after = options.after ?? 0;
      const deadline = Date.now() + (options.timeoutMs ?? 15_000);
      for (;;) {
        const fresh = (await messages(to)).filter((m) => m.receivedAt >= after);
        const newest = fresh.at(-1);
        if (newest) return extractCode(newest);
        if (Date.now() > deadline) throw new Error(`No mail to ${to} since ${new Date(after).toISOString()}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
  };
}
