// Mail bodies for the account flows. Pure and plain ASCII text, the code on its own line, so it
// reads the same in any mail client and in the server log.

export type MailContent = { subject: string; text: string };

const SIGNATURE = '-- \nQuarry';

export function signInCodeMail(input: { code: string; minutes: number }): MailContent {
  return {
    subject: 'Your Quarry sign-in code',
    text: [
      'Use this code to finish signing in to Quarry:',
      '',
      input.code,
      '',
      `The code works once and expires in ${input.minutes} minutes.`,
      'If you did not try to sign in, someone else knows your password: change it now.',
      '',
      SIGNATURE,
    ].join('\n'),
  };
}

export function resetCodeMail(input: { code: string; link: string; minutes: number }): MailContent {
  return {
    subject: 'Reset your Quarry password',
    text: [
      'Someone asked to reset the password of your Quarry account.',
      'Enter this code on the reset page:',
      '',
      input.code,
      '',
      'Or open this link to choose a new password:',
      input.link,
      '',
      `The code and the link work once and expire in ${input.minutes} minutes.`,
      'If you did not ask for this, ignore this mail: your password stays the same.',
      '',
      SIGNATURE,
    ].join('\n'),
  };
}

export function emailChangeCodeMail(input: { code: string; newEmail: string; minutes: number }): MailContent {
  return {
    subject: 'Confirm your new Quarry e-mail address',
    text: [
      `Use this code to confirm ${input.newEmail} as the e-mail address of your Quarry account:`,
      '',
      input.code,
      '',
      `The code works once and expires in ${input.minutes} minutes.`,
      'If you did not ask for this, ignore this mail.',
      '',
      SIGNATURE,
    ].join('\n'),
  };
}

/** To the old address once the change is done: the owner learns of it even if it was not them. */
export function emailChangedNoticeMail(input: { oldEmail: string; newEmail: string; resetLink: string }): MailContent {
  return {
    subject: 'Your Quarry e-mail address was changed',
    text: [
      `The e-mail address of your Quarry account was changed from ${input.oldEmail} to ${input.newEmail}.`,
      'Mails about your account now go to the new address, and you sign in with it.',
      '',
      'If you did this, there is nothing to do.',
      'If you did not, someone else has your password: ask the operator of this Quarry to give your',
      'account back, and choose a new password once it is yours again:',
      input.resetLink,
      '',
      SIGNATURE,
    ].join('\n'),
  };
}

/** The 6-digit code of a mail written by these templates (tests and the outbox reader). */
export function codeFromMailText(text: string): string | undefined {
  return /^(\d{6})$/m.exec(text)?.[1];
}
