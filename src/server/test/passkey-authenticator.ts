import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';

/**
 * A software authenticator for tests: a P-256 key, attestation "none", user verification, a
 * resident (discoverable) credential. It answers the options our server gives as a browser would.
 */

type Cbor = number | string | Uint8Array | Cbor[] | Map<Cbor, Cbor>;

function head(major: number, value: number): Buffer {
  if (value < 24) return Buffer.from([(major << 5) | value]);
  if (value < 0x100) return Buffer.from([(major << 5) | 24, value]);
  if (value < 0x10000) return Buffer.from([(major << 5) | 25, value >> 8, value & 0xff]);
  const b = Buffer.alloc(5);
  b[0] = (major << 5) | 26;
  b.writeUInt32BE(value, 1);
  return b;
}

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key. */
function cbor(value: Cbor): Buffer {
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') {
    const bytes = Buffer.from(value, 'utf8');
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (Array.isArray(value)) return Buffer.concat([head(4, value.length), ...value.map(cbor)]);
  return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
}

const b64url = (bytes: Uint8Array | string) => Buffer.from(bytes).toString('base64url');
const sha256 = (bytes: Uint8Array | string) => createHash('sha256').update(bytes).digest();

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

interface Credential {
  id: Buffer;
  privateKey: KeyObject;
  publicKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

export interface AuthenticatorOptions {
  /** The origin the "browser" reports (default: the test app's). */
  origin?: string;
  /** Keep a signature counter (default true; false: always 0, as many platform authenticators do). */
  counts?: boolean;
  /** Set the user-verified flag (default true). */
  verifies?: boolean;
}

export class SoftwareAuthenticator {
  readonly credentials: Credential[] = [];
  constructor(private readonly defaults: { origin: string }) {}

  private authData(rpId: string, flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter >>> 0, 0);
    return Buffer.concat([sha256(rpId), Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** navigator.credentials.create() for PublicKeyCredentialCreationOptionsJSON. */
  create(options: { challenge: string; rp: { id?: string }; user: { id: string } }, opts: AuthenticatorOptions = {}) {
    const rpId = options.rp.id!;
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const id = randomBytes(16);
    const cose = cbor(
      new Map<Cbor, Cbor>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, 'base64url')],
        [-3, Buffer.from(jwk.y!, 'base64url')],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(id.length, 0);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, id, cose]);
    const flags = FLAG_UP | FLAG_AT | (opts.verifies === false ? 0 : FLAG_UV);
    const authData = this.authData(rpId, flags, 0, attested);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: opts.origin ?? this.defaults.origin, crossOrigin: false });
    const credential: Credential = { id, privateKey, publicKey, rpId, userHandle: options.user.id, counter: 0 };
    this.credentials.push(credential);
    return {
      id: b64url(id),
      rawId: b64url(id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        attestationObject: b64url(cbor(new Map<Cbor, Cbor>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]))),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * navigator.credentials.get() for PublicKeyCredentialRequestOptionsJSON: the first credential it
   * holds for the rp (or the one named), signing with the next counter value.
   */
  get(
    options: { challenge: string; rpId?: string; allowCredentials?: Array<{ id: string }> },
    opts: AuthenticatorOptions & { credential?: Credential; rpId?: string; counter?: number } = {},
  ) {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const credential =
      opts.credential ?? this.credentials.find((c) => c.rpId === options.rpId && (allowed.length === 0 || allowed.includes(b64url(c.id))));
    if (!credential) throw new Error('no credential for this relying party');
    if (opts.counts !== false) credential.counter += 1;
    const counter = opts.counter ?? (opts.counts === false ? 0 : credential.counter);
    const flags = FLAG_UP | (opts.verifies === false ? 0 : FLAG_UV);
    const authData = this.authData(opts.rpId ?? credential.rpId, flags, counter);
    const clientDataJSON = JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: opts.origin ?? this.defaults.origin, crossOrigin: false });
    const signature = sign('sha256', Buffer.concat([authData, sha256(clientDataJSON)]), credential.privateKey);
    return {
      id: b64url(credential.id),
      rawId: b64url(credential.id),
      type: 'public-key' as const,
      response: {
        clientDataJSON: b64url(clientDataJSON),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }
}
