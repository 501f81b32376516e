import { z } from 'zod';
import { named, type ApiOperation, type Fits } from '../http/api-contract';
import { PICTURE_ACCEPT } from './profile-forms';
import { OtpVerifySchema, ProfilePatchSchema, ResetConfirmSchema, ResetRequestSchema, SignInSchema, SignUpSchema } from './schemas';
import type { IssuedToken, PublicUser } from './types';

// The accounts part of the JSON API (the routes api.v1.auth.*, api.v2.auth.signup).

export const TokenJson = named(
  'Token',
  z.object({ access_token: z.string(), token_type: z.literal('bearer').describe('Send as Authorization: bearer <access_token>') }).strict(),
);
const _token: Fits<IssuedToken, typeof TokenJson> = true;

export const UserJson = named(
  'User',
  z
    .object({
      id: z.string(),
      email: z.string(),
      full_name: z.string(),
      profile_picture: z.string().nullable().describe('Address of the picture, null without one'),
      has_access: z.boolean(),
    })
    .strict(),
);
const _user: Fits<PublicUser, typeof UserJson> = true;

const GuestJson = z.object({ detail: z.string().describe('Why there is no user: the token is a guest’s') }).strict();
const OkJson = z.object({ ok: z.literal(true) }).strict();

export const AUTH_API: readonly ApiOperation[] = [
  {
    method: 'post',
    path: '/api/v2/auth/signup',
    summary: 'Create an account',
    access: 'public',
    body: SignUpSchema,
    answers: { 201: { description: 'The new account’s token', json: TokenJson } },
    errors: [409, 429],
  },
  {
    method: 'post',
    path: '/api/v1/auth/signin',
    summary: 'Check the password and mail a one-time code',
    access: 'public',
    body: SignInSchema,
    answers: {
      200: {
        description: 'The code is on its way; verify it at /api/v1/auth/signin/otp/verify',
        json: z.object({ otp_required: z.literal(true), email: z.string() }).strict(),
      },
    },
    errors: [403, 429],
  },
  {
    method: 'post',
    path: '/api/v1/auth/signin/guest',
    summary: 'A guest token (browse without an account)',
    access: 'public',
    answers: { 200: { description: 'A guest token', json: TokenJson } },
    errors: [403],
  },
  {
    method: 'post',
    path: '/api/v1/auth/signin/otp/verify',
    summary: 'Exchange the mailed code for a token',
    access: 'public',
    body: OtpVerifySchema,
    answers: { 200: { description: 'The account’s token', json: TokenJson } },
    errors: [403, 429],
  },
  {
    method: 'get',
    path: '/api/v1/auth/signin/{provider}',
    summary: 'Start social sign-in with a provider',
    access: 'public',
    params: z.object({ provider: z.string().max(64) }),
    answers: { 302: { description: 'To the provider’s sign-in page (through /oauth/{provider})' } },
  },
  {
    method: 'post',
    path: '/api/v1/auth/logout',
    summary: 'Revoke the caller’s token',
    access: 'token',
    answers: { 204: { description: 'The token no longer works' } },
  },
  {
    method: 'post',
    path: '/api/v1/auth/reset-password',
    summary: 'Mail a password reset code (the same answer whether the account exists or not)',
    access: 'public',
    body: ResetRequestSchema,
    answers: { 200: { description: 'Sent if the account exists', json: OkJson } },
    errors: [429],
  },
  {
    method: 'post',
    path: '/api/v1/auth/reset-password-confirm',
    summary: 'Set a new password with the mailed code',
    access: 'public',
    body: ResetConfirmSchema,
    answers: { 200: { description: 'The password is changed', json: OkJson } },
    errors: [429],
  },
  {
    method: 'get',
    path: '/api/v1/auth/me',
    summary: 'The signed-in user, or {detail} for a guest token',
    access: 'token',
    answers: { 200: { description: 'The user, or why there is none', json: z.union([UserJson, GuestJson]) } },
  },
  {
    method: 'patch',
    path: '/api/v1/auth/me',
    summary: 'Update the profile',
    access: 'account',
    body: ProfilePatchSchema,
    answers: { 200: { description: 'The updated user', json: UserJson } },
    errors: [409],
  },
  {
    method: 'delete',
    path: '/api/v1/auth/me',
    summary: 'Delete the account and everything it owns',
    access: 'account',
    answers: { 204: { description: 'Deleted; the token no longer works' } },
  },
  {
    method: 'post',
    path: '/api/v1/auth/me/picture',
    summary: 'Upload a profile picture: the body is the file (PNG, JPEG or WebP, read from its bytes; re-encoded)',
    access: 'account',
    upload: PICTURE_ACCEPT.split(','),
    answers: { 200: { description: 'The user with profile_picture set', json: UserJson } },
  },
  {
    method: 'delete',
    path: '/api/v1/auth/me/picture',
    summary: 'Remove the profile picture',
    access: 'account',
    answers: { 200: { description: 'The user without a picture', json: UserJson } },
  },
];
