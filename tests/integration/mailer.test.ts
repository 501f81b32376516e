import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { resetConfigForTests } from '~/services/config.server';
import { closeMailer, sendMail } from '~/services/mail/mailer.server';
import { signInCodeMail } from '~/services/mail/templates';
import { DomainError } from '~/services/http/errors';
import { codeIn, startSmtpServer, type TestSmtpServer } from '../support/smtp';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';

// Mail goes over SMTP when SMTP_URL is set, else to the log and DATA_DIR/outbox.

describe('mailer', () => {
  let dataDir: string;
  let smtp: TestSmtpServer;
  const saved = { DATA_DIR: process.env.DATA_DIR, SMTP_URL: process.env.SMTP_URL };

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-mail-'));
    process.env.DATA_DIR = dataDir;
    smtp = await startSmtpServer();
  });
  afterEach(() => {
    closeMailer();
  });
  afterAll(async () => {
    await smtp.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfigForTests();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('without SMTP_URL writes the log line and an .eml into DATA_DIR/outbox', async () => {
    delete process.env.SMTP_URL;
    resetConfigForTests();
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    const mail = signInCodeMail({ code: '042137', minutes: 10 });
    await sendMail({ to: 'local@example.com', ...mail });
    expect(info).toHaveBeenCalledTimes(1);
    const line = String(info.mock.calls[0][0]);
    expect(line).toContain('to=local@example.com');
    expect(line).toContain(mail.subject);
    expect(line).toContain('042137');
    expect(line).not.toContain('\n');
    info.mockRestore();
    const files = readdirSync(path.join(dataDir, 'outbox'));
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(/^\d{4}-\d\d-\d\dT[\d-]+Z-local@example\.com\.eml$/);
    const eml = readFileSync(path.join(dataDir, 'outbox', files[0]), 'utf8');
    expect(eml).toContain('To: local@example.com');
    expect(eml).toContain(`Subject: ${mail.subject}`);
    expect(eml).toMatch(/^042137$/m);
  });

  it('with SMTP_URL delivers over SMTP', async () => {
    process.env.SMTP_URL = smtp.url;
    resetConfigForTests();
    await sendMail({ to: 'Remote@Example.com', ...signInCodeMail({ code: '900001', minutes: 10 }) });
    const got = await smtp.waitForMessage('remote@example.com');
    expect(got.subject).toBe('Your Quarry sign-in code');
    expect(codeIn(got)).toBe('900001');
    expect(got.from).toBe('no-reply@quarry.localhost');
  });

  it('an unreachable SMTP server is a 503 DomainError, and the failure is logged', async () => {
    process.env.SMTP_URL = 'smtp://127.0.0.1:1';
    resetConfigForTests();
    // The setup file fails tests that print errors; this failure is expected, so it is swallowed once.
    const error = vi.mocked(console.error).mockImplementationOnce(() => undefined);
    const err = await sendMail({ to: 'x@example.com', subject: 's', text: 't' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DomainError);
    expect((err as DomainError).status).toBe(503);
    expect(error).toHaveBeenCalledTimes(1);
    expect(String(error.mock.calls[0][0])).toContain('to x@example.com failed');
  });
});
