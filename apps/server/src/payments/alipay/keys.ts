import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * Alipay's key tool hands out keys as bare base64 (no BEGIN/END lines): the application private
 * key as PKCS#8 for Java or PKCS#1 for other languages, Alipay's public key as SubjectPublicKeyInfo.
 * Administrators also paste the PEM files OpenSSL writes. Each reader accepts all of these and
 * answers a KeyObject, or a sentence saying what is wrong (the config schema shows it as it is).
 */

const PEM_HEADER = '-----BEGIN';
const CERTIFICATE_HEADER = '-----BEGIN CERTIFICATE-----';
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;
/** Alipay's RSA2 requires 2048-bit keys. */
const MIN_MODULUS_BITS = 2048;

/** A key pasted from a JSON string sometimes keeps its line breaks as the two characters `\n`. */
const pastedText = (text: string): string => text.trim().replace(/\\n/g, '\n');

/** Bare base64 to DER bytes, or undefined when the text is not base64 at all. */
function bareDer(text: string): Buffer | undefined {
  const compact = text.replace(/\s+/g, '');
  return BASE64.test(compact) ? Buffer.from(compact, 'base64') : undefined;
}

type DerType = 'pkcs1' | 'pkcs8' | 'spki';
type KeyReader = (key: string | Buffer, format: 'pem' | 'der', type?: DerType) => KeyObject;

const privateReader: KeyReader = (key, format, type) =>
  createPrivateKey({ key, format, ...(type ? { type: type as 'pkcs1' | 'pkcs8' } : {}) });
const publicReader: KeyReader = (key, format, type) =>
  createPublicKey({ key, format, ...(type ? { type: type as 'pkcs1' | 'spki' } : {}) });

/** A PEM as it is, or bare base64 as the first of `derTypes` that reads; undefined when none does. */
function readEither(source: string, read: KeyReader, derTypes: readonly DerType[]): KeyObject | undefined {
  const attempts = source.includes(PEM_HEADER)
    ? [() => read(source, 'pem')]
    : derTypes.map((type) => () => read(bareDer(source) ?? Buffer.alloc(0), 'der', type));
  for (const attempt of attempts) {
    try {
      return attempt();
    } catch {
      // Not this encoding: try the next one.
    }
  }
  return undefined;
}

function strongRsa(key: KeyObject | undefined, field: string, unreadable: string): KeyObject | string {
  if (!key) return `${field} is not an RSA ${unreadable}`;
  if (key.asymmetricKeyType !== 'rsa') return `${field} is a ${key.asymmetricKeyType} key, not RSA`;
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0;
  return bits >= MIN_MODULUS_BITS ? key : `${field} is a ${bits}-bit RSA key; RSA2 needs 2048 bits`;
}

/** The application private key (应用私钥), PKCS#1 or PKCS#8, PEM or bare base64. */
export function readPrivateKey(text: string): KeyObject | string {
  const key = readEither(pastedText(text), privateReader, ['pkcs8', 'pkcs1']);
  return strongRsa(key, 'private_key', 'private key (paste the application private key, 应用私钥, PKCS#1 or PKCS#8)');
}

/** Alipay's public key (支付宝公钥), SubjectPublicKeyInfo or PKCS#1, PEM or bare base64. */
export function readPublicKey(text: string): KeyObject | string {
  const source = pastedText(text);
  if (source.includes(CERTIFICATE_HEADER)) {
    return 'public_key is a certificate: this gateway uses the public-key mode (公钥模式); paste the Alipay public key instead';
  }
  if (source.includes(PEM_HEADER) && /PRIVATE KEY/.test(source)) {
    return 'public_key is a private key; paste the Alipay public key (支付宝公钥)';
  }
  const key = readEither(source, publicReader, ['spki', 'pkcs1']);
  return strongRsa(key, 'public_key', 'public key (paste the Alipay public key, 支付宝公钥)');
}

/**
 * The most common set-up mistake: pasting the application's own public key where Alipay's belongs.
 * Every callback would then fail verification, so it is refused when the gateway is saved.
 */
export function isOwnPublicKey(privateKey: KeyObject, publicKey: KeyObject): boolean {
  const derived = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return derived.equals(publicKey.export({ format: 'der', type: 'spki' }));
}
