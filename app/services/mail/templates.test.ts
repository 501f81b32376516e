import { describe, expect, it } from 'vitest';
import { codeFromMailText, emailChangeCodeMail, emailChangedNoticeMail, resetCodeMail, signInCodeMail } from './templates';

describe('mail templates', () => {
  const ascii = /^[\x20-\x7e\n]*$/;

  it('put the code on its own line, in plain ASCII', () => {
    const mails = [
      signInCodeMail({ code: '004213', minutes: 10 }),
      resetCodeMail({ code: '004213', link: 'https://q.example/reset-password?email=a%40b.c&token=004213', minutes: 10 }),
      emailChangeCodeMail({ code: '004213', newEmail: 'new@example.com', minutes: 10 }),
    ];
    for (const m of mails) {
      expect(m.text).toMatch(ascii);
      expect(m.subject).toMatch(ascii);
      expect(codeFromMailText(m.text)).toBe('004213');
      expect(m.text).toContain('10 minutes');
    }
    expect(mails[1].text).toContain('https://q.example/reset-password?email=a%40b.c&token=004213');
    expect(mails[2].text).toContain('new@example.com');
  });

  it('tell the old address of a changed e-mail, with no code a reader could use', () => {
    const m = emailChangedNoticeMail({
      oldEmail: 'old@example.com',
      newEmail: 'new@example.com',
      resetLink: 'https://q.example/forgot-password',
    });
    expect(m.text).toMatch(ascii);
    expect(m.text).toContain('changed from old@example.com to new@example.com');
    expect(m.text).toContain('https://q.example/forgot-password');
    expect(codeFromMailText(m.text)).toBeUndefined();
  });
});
