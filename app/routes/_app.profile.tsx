import { parseWithZod } from '@conform-to/zod';
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from '@remix-run/node';
import { redirect } from '@remix-run/node';
import { useActionData, useLoaderData } from '@remix-run/react';
import { z } from 'zod';
import { requestContext } from '~/services/auth/api.server';
import { cancelEmailChange, confirmEmailChange, pendingEmailChange, requestEmailChange } from '~/services/auth/email-change.server';
import { requireUser } from '~/services/auth/guard.server';
import { accountHasPassword, changePassword } from '~/services/auth/password-change.server';
import {
  EmailCodeFormSchema,
  emailFormSchema,
  NameFormSchema,
  passwordFormSchema,
  PICTURE_FORM_MAX_BYTES,
  PICTURE_TOO_LARGE_DETAIL,
  PictureFormSchema,
} from '~/services/auth/profile-forms';
import { removeProfilePicture, setProfilePicture } from '~/services/auth/profile-picture.server';
import { redirectWithModal, setDisplayFields, setSignedOut } from '~/services/auth/session.server';
import { revokeAllUserTokens } from '~/services/auth/tokens.server';
import type { AccountUser } from '~/services/auth/types';
import { deleteAccount, updateProfile } from '~/services/auth/users.server';
import { readFormData } from '~/services/http/request-body.server';
import { formFailure } from '~/services/http/form-reply.server';
import { intent, intentAction, NO_VALUES } from '~/services/http/intent-action.server';
import type { ModalState } from '~/services/http/modal-state';
import { loadSubscriptionPanel } from '~/services/billing/profile-panel.server';
import { SubscriptionPanel } from '~/ui/billing/SubscriptionPanel';
import { AccountSummary } from '~/ui/profile/AccountSummary';
import { EmailSection } from '~/ui/profile/EmailSection';
import { resultFor } from '~/ui/profile/form-result';
import { NameSection } from '~/ui/profile/NameSection';
import { PasswordSection } from '~/ui/profile/PasswordSection';
import { PictureSection } from '~/ui/profile/PictureSection';
import { DeleteAccountSection, SignOutEverywhereSection } from '~/ui/profile/SessionSections';

// /profile: name, picture, e-mail, password, sign out everywhere, delete account. Every form
// posts here with an `intent` and ends in a redirect with an info modal, or goes back to its
// form with a 4xx and the message. Sections live in app/ui/profile so more can be added.

export const meta: MetaFunction = () => [{ title: 'Profile · Quarry' }];
export const handle = { pageName: 'profile' };

/** `?modal=` states of this page: the prompt and confirm dialogs. */
function pageModal(modal: string | null, fullName: string): ModalState | null {
  if (modal === 'change-name') {
    return {
      kind: 'prompt',
      title: 'Change your name',
      content: 'This is the name shown on your account.',
      action: '/profile',
      label: 'Full name',
      name: 'full_name',
      defaultValue: fullName,
      maxLength: 100,
      fields: { intent: 'change-name' },
    };
  }
  if (modal === 'delete-account') {
    return {
      kind: 'confirm',
      title: 'Delete your account?',
      content: 'Your account and everything saved with it are deleted for good. This cannot be undone.',
      action: '/profile',
      confirmLabel: 'Delete account',
      danger: true,
      fields: { intent: 'delete-account' },
    };
  }
  return null;
}

export async function loader({ request }: LoaderFunctionArgs) {
  const { user } = await requireUser(request);
  const url = new URL(request.url);
  return {
    user: {
      email: user.email,
      full_name: user.full_name,
      has_access: user.has_access,
      is_superuser: user.is_superuser,
      profile_finished: user.profile_finished,
      profile_picture: user.profile_picture,
    },
    hasPassword: await accountHasPassword(user.id),
    pendingEmail: await pendingEmailChange(user),
    modal: pageModal(url.searchParams.get('modal'), user.full_name),
    billing: await loadSubscriptionPanel(user.id, request),
  };
}

/** A form answer for `intent` when the body itself could not be read (too large, malformed). */
function unreadableForm(intent: string, error: unknown) {
  const submission = parseWithZod(new URLSearchParams({ intent }), { schema: z.object({ intent: z.string() }) });
  return formFailure(submission, error);
}

export async function action({ request }: ActionFunctionArgs) {
  const { user, session, caller } = await requireUser(request);
  let formData: FormData;
  try {
    // Only the picture form is large; every form is read with the picture form's cap.
    formData = await readFormData(request, { maxBytes: PICTURE_FORM_MAX_BYTES, tooLargeDetail: PICTURE_TOO_LARGE_DETAIL });
  } catch (e) {
    return unreadableForm('upload-picture', e);
  }
  const ctx = requestContext(request);
  const info = (title: string, content: string, updated?: AccountUser) => {
    if (updated) setDisplayFields(session, updated);
    return redirectWithModal(session, '/profile', { kind: 'info', title, content, mode: 'success' });
  };
  const hasPassword = await accountHasPassword(user.id);
  return intentAction(formData, {
    cancelTo: '/profile',
    intents: {
      'change-name': intent(NameFormSchema, async (v) =>
        info('Name changed', `Your name is now ${v.full_name}.`, await updateProfile(user.id, { full_name: v.full_name })),
      ),
      'upload-picture': intent(PictureFormSchema, async (v) => {
        const updated = await setProfilePicture(user.id, {
          bytes: new Uint8Array(await v.picture.arrayBuffer()),
          fileName: v.picture.name,
        });
        return info('Picture saved', 'Your new profile picture is shown on your account.', updated);
      }),
      'remove-picture': intent(NO_VALUES, async () =>
        info('Picture removed', 'Your initials are shown instead of a picture.', await removeProfilePicture(user.id)),
      ),
      'change-password': intent(passwordFormSchema(hasPassword), async (v) => {
        await changePassword(user.id, v, { ...ctx, keepTokenHash: caller.kind === 'user' ? caller.tokenHash : '' });
        return info('Password changed', 'Your password is changed. Every other device where you were signed in is signed out.');
      }),
      'change-email': intent(emailFormSchema(hasPassword), async (v) => {
        const pending = await requestEmailChange(user.id, v, ctx);
        return info('Check your new e-mail', `We sent a 6-digit code to ${pending.newEmail}. Enter it on this page to confirm the change.`);
      }),
      'confirm-email': intent(EmailCodeFormSchema, async (v) => {
        const updated = await confirmEmailChange(user.id, v, ctx);
        return info('E-mail changed', `Your e-mail address is now ${updated.email}.`, updated);
      }),
      'cancel-email-change': intent(NO_VALUES, async () => {
        await cancelEmailChange(user);
        return redirect('/profile');
      }),
      'sign-out-everywhere': intent(NO_VALUES, async () => {
        await revokeAllUserTokens(user.id);
        setSignedOut(session);
        return redirectWithModal(session, '/login', {
          kind: 'info',
          title: 'Signed out everywhere',
          content: 'You are signed out on every device, this one included.',
          mode: 'info',
        });
      }),
      'delete-account': intent(z.object({ confirmed: z.string().optional() }), async (v) => {
        if (v.confirmed !== 'true') return redirect('/profile');
        await deleteAccount(user.id);
        setSignedOut(session);
        return redirectWithModal(session, '/register', {
          kind: 'info',
          title: 'Account deleted',
          content: 'Your account and its data were deleted.',
          mode: 'info',
        });
      }),
    },
  });
}

export default function ProfilePage() {
  const { user, hasPassword, pendingEmail, billing } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  return (
    <>
      <h1>Profile</h1>
      <div className="profile-sections">
        <AccountSummary user={user} subscribe={billing !== null} />
        <SubscriptionPanel panel={billing} />
        {/* Keyed by the name: after a change (here or in the prompt) the field shows the new one. */}
        <NameSection key={user.full_name} fullName={user.full_name} lastResult={resultFor(actionData, 'change-name')} />
        <PictureSection picture={user.profile_picture} lastResult={resultFor(actionData, 'upload-picture')} />
        <EmailSection
          key={user.email}
          hasPassword={hasPassword}
          pending={pendingEmail}
          requestResult={resultFor(actionData, 'change-email')}
          codeResult={resultFor(actionData, 'confirm-email')}
        />
        <PasswordSection hasPassword={hasPassword} lastResult={resultFor(actionData, 'change-password')} />
        <SignOutEverywhereSection />
        <DeleteAccountSection />
      </div>
    </>
  );
}
