import { type KeyObject, generateKeyPairSync, randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { SignedXml } from 'xml-crypto';
import { selfSignedCertificate } from '../core/sso/x509';

/** A test identity provider: its own key pair and certificate, and signed SAML responses on demand. */
export class TestIdp {
  readonly privateKey: KeyObject;
  readonly privateKeyPem: string;
  readonly certificate: string;

  constructor(readonly entityId = 'https://idp.example.test/metadata') {
    this.privateKey = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey;
    this.privateKeyPem = this.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    this.certificate = selfSignedCertificate({ privateKey: this.privateKey, commonName: 'Test IdP' });
  }

  /** A base64 SAMLResponse with a signed assertion, as an IdP posts it to the ACS URL. */
  response(o: ResponseOptions): string {
    const now = o.now ?? new Date();
    const at = (ms: number) => new Date(now.getTime() + ms).toISOString();
    const notOnOrAfter = at(o.validForMs ?? 5 * 60 * 1000);
    const inResponseTo = o.inResponseTo ? ` InResponseTo="${o.inResponseTo}"` : '';
    const assertionId = o.assertionId ?? `_a${randomBytes(16).toString('hex')}`;
    const attributes = Object.entries(o.attributes ?? {})
      .map(([k, v]) => `<saml:Attribute Name="${k}"><saml:AttributeValue>${v}</saml:AttributeValue></saml:Attribute>`)
      .join('');
    const assertion =
      `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${assertionId}" Version="2.0" IssueInstant="${at(0)}">` +
      `<saml:Issuer>${o.issuer ?? this.entityId}</saml:Issuer>` +
      '<saml:Subject>' +
      `<saml:NameID Format="urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress">${o.email}</saml:NameID>` +
      '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
      `<saml:SubjectConfirmationData NotOnOrAfter="${notOnOrAfter}" Recipient="${o.acsURL}"${inResponseTo}/>` +
      '</saml:SubjectConfirmation></saml:Subject>' +
      `<saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${notOnOrAfter}">` +
      `<saml:AudienceRestriction><saml:Audience>${o.audience}</saml:Audience></saml:AudienceRestriction></saml:Conditions>` +
      `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="_s1"><saml:AuthnContext>` +
      '<saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef>' +
      '</saml:AuthnContext></saml:AuthnStatement>' +
      (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
      '</saml:Assertion>';
    const xml =
      `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="_r${randomBytes(16).toString('hex')}" Version="2.0" IssueInstant="${at(0)}" Destination="${o.acsURL}"${inResponseTo}>` +
      `<saml:Issuer>${o.issuer ?? this.entityId}</saml:Issuer>` +
      '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
      assertion +
      '</samlp:Response>';
    const signer = new SignedXml({
      privateKey: o.signWith ?? this.privateKeyPem,
      publicCert: this.certificate,
      signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
      canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    });
    signer.addReference({
      xpath: "//*[local-name(.)='Assertion']",
      transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
      digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
    });
    signer.computeSignature(xml, {
      location: { reference: "//*[local-name(.)='Assertion']/*[local-name(.)='Issuer']", action: 'after' },
    });
    let signed = signer.getSignedXml();
    if (o.tamper) signed = o.tamper(signed);
    return Buffer.from(signed).toString('base64');
  }
}

export interface ResponseOptions {
  email: string;
  acsURL: string;
  audience: string;
  inResponseTo?: string;
  issuer?: string;
  attributes?: Record<string, string>;
  now?: Date;
  validForMs?: number;
  assertionId?: string;
  /** Another key than the IdP's: a forged response. */
  signWith?: string;
  /** Changes the XML after signing. */
  tamper?: (xml: string) => string;
}

/** The AuthnRequest carried by a redirect to the IdP (HTTP-Redirect binding: deflated, base64). */
export function authnRequestOf(location: string): { id: string; xml: string; url: URL } {
  const url = new URL(location);
  const xml = inflateRawSync(Buffer.from(url.searchParams.get('SAMLRequest') ?? '', 'base64')).toString('utf8');
  const id = /\sID="([^"]+)"/.exec(xml)?.[1] ?? '';
  return { id, xml, url };
}
