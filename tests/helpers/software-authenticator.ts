// A passkey authenticator in software, for the API tests (issue 29): an EC P-256 key from node:crypto,
// and the WebAuthn answers built byte by byte as a browser and an authenticator would build them
// (attestation "none" on registration, an ES256 assertion on sign-in), so the server's library checks
// real signatures over real authenticator data.
import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from 'node:crypto';

const b64url = (bytes: Uint8Array | Buffer | string) => Buffer.from(bytes).toString('base64url');

/** Just enough CBOR (RFC 8949) for an attestation object and a COSE key: maps, byte and text strings, small integers. */
function cbor(value: unknown): Buffer {
  const head = (major: number, length: number) => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 256) return Buffer.from([(major << 5) | 24, length]);
    const b = Buffer.alloc(3); b[0] = (major << 5) | 25; b.writeUInt16BE(length, 1); return b;
  };
  if (typeof value === 'number') return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === 'string') { const text = Buffer.from(value, 'utf8'); return Buffer.concat([head(3, text.length), text]); }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), Buffer.from(value)]);
  if (value instanceof Map) {
    return Buffer.concat([head(5, value.size), ...[...value].flatMap(([k, v]) => [cbor(k), cbor(v)])]);
  }
  throw new Error(`cbor: cannot encode ${typeof value}`);
}

export interface CeremonyOptions {
  /** The origin the "browser" reports (the page's); by default the relying party's. */
  origin?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(16);
  private readonly privateKey: KeyObject;
  private readonly cose: Buffer;
  /** The signature counter this authenticator reports next (a real one keeps counting). */
  counter = 1;
  /** The user handle stored with the credential at registration. */
  userHandle = '';

  constructor(readonly rpId = 'localhost', readonly rpOrigin = 'http://localhost:8000') {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = privateKey;
    const jwk = publicKey.export({ format: 'jwk' });
    // COSE_Key: kty EC2 (2), alg ES256 (-7), crv P-256 (1), x, y.
    this.cose = cbor(new Map<number, unknown>([[1, 2], [3, -7], [-1, 1], [-2, Buffer.from(jwk.x!, 'base64url')], [-3, Buffer.from(jwk.y!, 'base64url')]]));
  }

  get id() { return b64url(this.credentialId); }

  private authData(flags: number, counter: number, attested?: Buffer) {
    const rpIdHash = createHash('sha256').update(this.rpId).digest();
    const count = Buffer.alloc(4); count.writeUInt32BE(counter);
    return Buffer.concat([rpIdHash, Buffer.from([flags]), count, ...(attested ? [attested] : [])]);
  }

  /** The answer to registration options (navigator.credentials.create), as RegistrationResponseJSON. */
  register(options: { challenge: string; user: { id: string } }, ceremony: CeremonyOptions = {}) {
    this.userHandle = options.user.id;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.create', challenge: options.challenge, origin: ceremony.origin ?? this.rpOrigin, crossOrigin: false }));
    const length = Buffer.alloc(2); length.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16) /* aaguid */, length, this.credentialId, this.cose]);
    // UP (0x01) | UV (0x04) | AT (0x40)
    const authData = this.authData(0x45, 0, attested);
    const attestationObject = cbor(new Map<string, unknown>([['fmt', 'none'], ['attStmt', new Map()], ['authData', authData]]));
    return {
      id: this.id, rawId: this.id, type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), attestationObject: b64url(attestationObject), transports: ['internal'] },
      authenticatorAttachment: 'platform', clientExtensionResults: {},
    };
  }

  /** The answer to sign-in options (navigator.credentials.get), as AuthenticationResponseJSON; the counter moves on unless told. */
  assert(options: { challenge: string }, ceremony: CeremonyOptions & { counter?: number } = {}) {
    const counter = ceremony.counter ?? this.counter++;
    const clientDataJSON = Buffer.from(JSON.stringify({ type: 'webauthn.get', challenge: options.challenge, origin: ceremony.origin ?? this.rpOrigin, crossOrigin: false }));
    const authData = this.authData(0x05, counter);
    const signature = sign('sha256', Buffer.concat([authData, createHash('sha256').update(clientDataJSON).digest()]), this.privateKey);
    return {
      id: this.id, rawId: this.id, type: 'public-key' as const,
      response: { clientDataJSON: b64url(clientDataJSON), authenticatorData: b64url(authData), signature: b64url(signature), userHandle: this.userHandle },
      authenticatorAttachment: 'platform', clientExtensionResults: {},
    };
  }
}
