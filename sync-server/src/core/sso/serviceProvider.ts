import { createPrivateKey, generateKeyPairSync } from 'node:crypto';
import { type CacheProvider, SAML, ValidateInResponseTo } from '@node-saml/node-saml';
import type { Queryable } from '../../store/db';
import * as saml from '../../store/saml';
import type { SamlProviderRow } from '../../store/saml';
import { selfSignedCertificate } from './x509';

/** How long the identity provider may take to answer an AuthnRequest we sent. */
export const REQUEST_MAX_AGE_MS = 10 * 60 * 1000;
/** Clock difference tolerated between this server and an identity provider. */
export const CLOCK_SKEW_MS = 60 * 1000;

/** The URLs this server exposes for one provider; outside /v1 because browsers reach them without a token. */
export function serviceUrls(base: string, providerId: string) {
  const root = `${base}/sso/saml/${providerId}`;
  return { entityID: root, startURL: `${root}/start`, acsURL: `${root}/acs` };
}

interface SpKeys {
  privateKey: string;
  certificate: string;
}

const cachedKeys = new WeakMap<Queryable, SpKeys>();

/**
 * The service provider's signing key and certificate, created once and kept in the
 * database so every instance signs AuthnRequests with the same key and publishes the
 * same certificate in its metadata.
 */
export async function serviceProviderKeys(db: Queryable): Promise<SpKeys> {
  const hit = cachedKeys.get(db);
  if (hit) return hit;
  const existing = await db.query<{ value: string }>("SELECT value FROM server_secrets WHERE name = 'saml-sp-keys'");
  if (!existing[0]) {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const keys: SpKeys = {
      privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      certificate: selfSignedCertificate({ privateKey, commonName: 'Quire SAML service provider' }),
    };
    // Two instances may race here: the first insert wins and both read it back.
    await db.query("INSERT INTO server_secrets (name, value) VALUES ('saml-sp-keys', $1) ON CONFLICT (name) DO NOTHING", [
      JSON.stringify(keys),
    ]);
  }
  const row = await db.query<{ value: string }>("SELECT value FROM server_secrets WHERE name = 'saml-sp-keys'");
  const keys = JSON.parse((row[0] as { value: string }).value) as SpKeys;
  createPrivateKey(keys.privateKey); // fail loudly on a corrupted row
  cachedKeys.set(db, keys);
  return keys;
}

/** AuthnRequest ids kept in the database, so a response may land on any instance. */
function requestCache(db: Queryable, providerId: string): CacheProvider {
  return {
    async saveAsync(key, value) {
      await saml.saveRequest(db, providerId, key);
      return { value, createdAt: Date.now() };
    },
    async getAsync(key) {
      const row = await saml.getRequest(db, providerId, key);
      return row ? new Date(row.created_at).toISOString() : null;
    },
    async removeAsync(key) {
      return key ? saml.removeRequest(db, key) : null;
    },
  };
}

/**
 * A node-saml instance for one identity provider: signed AuthnRequests out, and
 * responses in checked against the provider's certificate, our audience, the time window
 * and (for answers to our requests) the request they answer.
 */
export async function samlFor(db: Queryable, provider: SamlProviderRow, base: string): Promise<SAML> {
  const keys = await serviceProviderKeys(db);
  const urls = serviceUrls(base, provider.id);
  return new SAML({
    issuer: urls.entityID,
    callbackUrl: urls.acsURL,
    entryPoint: provider.sso_url,
    idpCert: provider.certificate,
    audience: urls.entityID,
    privateKey: keys.privateKey,
    publicCert: keys.certificate,
    signatureAlgorithm: 'sha256',
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    identifierFormat: 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress',
    disableRequestedAuthnContext: true,
    // A valid signature over the assertion is required either way: on the response or on the assertion.
    wantAssertionsSigned: false,
    wantAuthnResponseSigned: false,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    // Identity-provider-initiated sign-ins carry no InResponseTo; answers to our requests must match one.
    validateInResponseTo: ValidateInResponseTo.ifPresent,
    requestIdExpirationPeriodMs: REQUEST_MAX_AGE_MS,
    cacheProvider: requestCache(db, provider.id),
  });
}

/** SAML metadata of this service provider for one identity provider, to paste into the IdP. */
export async function serviceProviderMetadata(db: Queryable, provider: SamlProviderRow, base: string): Promise<string> {
  const instance = await samlFor(db, provider, base);
  const keys = await serviceProviderKeys(db);
  return instance.generateServiceProviderMetadata(null, keys.certificate);
}
