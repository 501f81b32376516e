import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import { config } from '../config.server';
import { DomainError } from '../http/errors';

// Outgoing mail: nodemailer over SMTP_URL. Without it, a local user still gets their code: the
// mail goes to the server log and to DATA_DIR/outbox/ as an .eml file.

export type OutgoingMail = { to: string; subject: string; text: string; html?: string };

let transport: { url: string; transporter: Transporter } | undefined;

function smtpTransport(url: string): Transporter {
  if (transport?.url !== url) {
    transport?.transporter.close();
    transport = { url, transporter: nodemailer.createTransport(url) };
  }
  return transport.transporter;
}

export const MAIL_FAILED_DETAIL = 'We could not send the e-mail right now. Try again in a few minutes.';

export async function sendMail(mail: OutgoingMail): Promise<void> {
  const c = config();
  const message = { from: c.mailFrom, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html };
  if (c.smtpUrl) {
    try {
      await smtpTransport(c.smtpUrl).sendMail(message);
    } catch (e) {
      console.error(`[mail] sending "${mail.subject}" to ${mail.to} failed:`, e instanceof Error ? e.message : e);
      throw new DomainError(503, MAIL_FAILED_DETAIL);
    }
    return;
  }
  console.info(`[mail] to=${mail.to} subject=${JSON.stringify(mail.subject)} text=${JSON.stringify(mail.text)}`);
  const built = await nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' }).sendMail(message);
  const outbox = path.join(c.dataDir, 'outbox');
  mkdirSync(outbox, { recursive: true });
  const safeTo = mail.to.replace(/[^a-zA-Z0-9@._+-]/g, '_').slice(0, 100);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let file = path.join(outbox, `${stamp}-${safeTo}.eml`);
  for (let n = 2; existsSync(file); n++) file = path.join(outbox, `${stamp}-${safeTo}-${n}.eml`);
  writeFileSync(file, built.message as Buffer, { mode: 0o600 });
}

/** Closes the pooled SMTP connection (tests, shutdown). */
export function closeMailer(): void {
  transport?.transporter.close();
  transport = undefined;
}
