import { describe, expect, it } from 'vitest';
import { EmailSchema, OtpVerifySchema, ProfilePatchSchema, ResetConfirmSchema, SignInSchema, SignUpSchema } from './schemas';

const messages = (r: { success: boolean; error?: { issues: Array<{ path: (string | number)[]; message: string }> } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));

describe('auth schemas', () => {
  it('trims and lowercases e-mails, and says what is wrong in plain words', () => {
    expect(EmailSchema.parse('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(messages(EmailSchema.safeParse(''))).toEqual({ '': 'Enter your e-mail address.' });
    expect(messages(EmailSchema.safeParse('nope'))).toEqual({ '': 'Enter a valid e-mail address, like name@example.com.' });
    expect(EmailSchema.safeParse(`${'a'.repeat(250)}@b.co`).success).toBe(false);
  });

  it('sign-up: 8–128 character passwords, no composition rules, matching confirmation', () => {
    const base = { email: 'a@b.co', full_name: ' Ada ', password: 'aaaaaaaa', password_confirmation: 'aaaaaaaa' };
    expect(SignUpSchema.parse(base)).toEqual({ ...base, full_name: 'Ada' });
    expect(messages(SignUpSchema.safeParse({ ...base, password: 'a'.repeat(7), password_confirmation: 'a'.repeat(7) }))).toEqual({
      password: 'Your password must be at least 8 characters long.',
    });
    expect(SignUpSchema.safeParse({ ...base, password: 'a'.repeat(129), password_confirmation: 'a'.repeat(129) }).success).toBe(false);
    expect(messages(SignUpSchema.safeParse({ ...base, password_confirmation: 'aaaaaaab' }))).toEqual({
      password_confirmation: 'Passwords do not match.',
    });
    expect(messages(SignUpSchema.safeParse({ ...base, full_name: '   ' }))).toEqual({ full_name: 'Enter your full name.' });
  });

  it('sign-in accepts any non-empty password; codes are exactly 6 digits', () => {
    expect(SignInSchema.safeParse({ email: 'a@b.co', password: 'x' }).success).toBe(true);
    expect(messages(SignInSchema.safeParse({ email: 'a@b.co', password: '' }))).toEqual({ password: 'Enter your password.' });
    expect(OtpVerifySchema.safeParse({ email: 'a@b.co', token: ' 012345 ' }).success).toBe(true);
    for (const token of ['12345', '1234567', 'abcdef', 123456]) {
      expect(messages(OtpVerifySchema.safeParse({ email: 'a@b.co', token }))).toEqual({ token: 'Enter the 6-digit code from the e-mail.' });
    }
    expect(
      ResetConfirmSchema.safeParse({ email: 'a@b.co', token: '000000', password: 'abcdefgh', password_confirmation: 'abcdefgh' }).success,
    ).toBe(true);
  });

  it('profile patch: http(s) picture or empty to clear, names without control characters', () => {
    expect(ProfilePatchSchema.parse({})).toEqual({});
    expect(ProfilePatchSchema.parse({ profile_picture: '' })).toEqual({ profile_picture: null });
    expect(ProfilePatchSchema.parse({ profile_picture: null })).toEqual({ profile_picture: null });
    expect(ProfilePatchSchema.parse({ profile_picture: 'https://x.example/p.png' })).toEqual({
      profile_picture: 'https://x.example/p.png',
    });
    for (const bad of ['javascript:alert(1)', 'data:image/png;base64,AAAA', 'not a url', 5]) {
      expect(ProfilePatchSchema.safeParse({ profile_picture: bad }).success).toBe(false);
    }
    expect(ProfilePatchSchema.safeParse({ full_name: 'a\u0007b' }).success).toBe(false);
    expect(ProfilePatchSchema.parse({ full_name: 'x\uD800y' })).toEqual({ full_name: 'x\uFFFDy' });
  });
});
