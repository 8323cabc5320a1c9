import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import { z } from 'zod';
import type { PasskeyRow } from './repo.js';

/**
 * The bodies of the `/api/webauthn/*` routes. The browser's answers are checked for shape here, so
 * a malformed one is a 400 naming the field; what they prove is checked by @simplewebauthn/server.
 */
const base64url = z
  .string()
  .regex(/^[A-Za-z0-9_-]+$/, 'must be base64url text')
  .max(16_384);

export const registrationBeginBody = z
  .object({ alias: z.string().trim().max(255, 'alias: at most 255 characters').optional() })
  .default({});

/** `POST /api/webauthn/password_check`: the current password, before adding a passkey. */
export const passwordCheckBody = z.object({
  password: z
    .string('password is required')
    .min(1, 'password is required')
    .max(128, 'password: at most 128 characters'),
});

export const loginBeginBody = z.object({ username: z.string().trim().max(191).optional() }).default({});

const transports = z.array(z.string().max(32)).max(16);

/** What a browser's answer carries around its `response`, the same in both ceremonies. */
const credentialFields = {
  id: base64url,
  rawId: base64url,
  type: z.literal('public-key'),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional().catch(undefined),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
};

export const registrationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url,
    attestationObject: base64url,
    authenticatorData: base64url.optional(),
    transports: transports.optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: base64url.optional(),
  }),
}) satisfies z.ZodType<RegistrationResponseJSON>;

export const authenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: base64url,
    authenticatorData: base64url,
    signature: base64url,
    // Some browsers send null rather than leaving it out when the authenticator kept no handle.
    userHandle: base64url
      .optional()
      .nullable()
      .transform((value) => value ?? undefined),
  }),
}) satisfies z.ZodType<AuthenticationResponseJSON>;

/** `GET /api/webauthn/credentials` items: the reference's fields, the id as standard base64 as there. */
export interface PasskeyView {
  id: number;
  credential_id: string;
  alias: string;
  created_time: number;
}
export function toPasskeyView(row: Pick<PasskeyRow, 'id' | 'credential_id' | 'alias' | 'created_time'>): PasskeyView {
  return {
    id: row.id,
    credential_id: Buffer.from(row.credential_id, 'base64url').toString('base64'),
    alias: row.alias,
    created_time: Number(row.created_time),
  };
}
