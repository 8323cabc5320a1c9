import { z } from 'zod';
import type { ResourceOperations } from '../openapi/operation.js';
import {
  authenticationResponse,
  loginBeginBody,
  passwordCheckBody,
  registrationBeginBody,
  registrationResponse,
} from './wire.js';

/** The handler checks the id itself: digits, a safe integer. */
const passkeyIdParam = z.object({ id: z.string().regex(/^\d{1,15}$/) });

const ENROLMENT =
  'Needs the session cookie and a password check (POST /api/webauthn/password_check) in the last ten minutes.';

export const passkeyOperations: ResourceOperations = {
  tag: 'Passkeys',
  description: 'WebAuthn passkeys: registration and management for signed-in users, and passkey sign-in.',
  operations: [
    {
      method: 'post',
      path: '/api/webauthn/password_check',
      summary: 'Confirm the password before adding passkeys',
      access: 'session',
      body: passwordCheckBody,
    },
    {
      method: 'post',
      path: '/api/webauthn/registration/begin',
      summary: 'Start registering a passkey: the creation options',
      description: ENROLMENT,
      access: 'session',
      body: registrationBeginBody,
    },
    {
      method: 'post',
      path: '/api/webauthn/registration/finish',
      summary: 'Finish registering a passkey with the authenticator’s answer',
      description: ENROLMENT,
      access: 'session',
      body: registrationResponse,
    },
    {
      method: 'post',
      path: '/api/webauthn/login/begin',
      summary: 'Start a passkey sign-in: the request options',
      access: 'public',
      body: loginBeginBody,
    },
    {
      method: 'post',
      path: '/api/webauthn/login/finish',
      summary: 'Finish a passkey sign-in (sets the session cookie)',
      access: 'public',
      body: authenticationResponse,
    },
    { method: 'get', path: '/api/webauthn/credentials', summary: 'List the caller’s passkeys', access: 'user' },
    {
      method: 'delete',
      path: '/api/webauthn/credentials/:id',
      summary: 'Delete one of the caller’s passkeys',
      access: 'user',
      params: passkeyIdParam,
    },
  ],
};
