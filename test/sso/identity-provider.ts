// The tests' SAML identity provider: a key pair with a self-signed certificate (selfsigned), the AuthnRequest a start
// URL sends it, and the responses it returns, built as an identity provider builds them and signed with xml-crypto
// (exclusive c14n, RSA-SHA256, enveloped signature on the assertion).
import { randomBytes } from 'node:crypto';
import { inflateRawSync } from 'node:zlib';
import { generate } from 'selfsigned';
import { SignedXml } from 'xml-crypto';

export const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';

export interface IdentityProvider {
  entityID: string;
  ssoURL: string;
  /** PEM. */
  certificate: string;
  privateKey: string;
}

let created = 0;

export async function createIdentityProvider(): Promise<IdentityProvider> {
  const number = ++created;
  const pems = await generate([{ name: 'commonName', value: `idp${number}.test` }], { keySize: 2048, algorithm: 'sha256' });
  return {
    entityID: `https://idp${number}.test/metadata`,
    ssoURL: `https://idp${number}.test/sso`,
    certificate: pems.cert,
    privateKey: pems.private,
  };
}

export interface AuthnRequest {
  /** The redirect's Location. */
  location: URL;
  id: string;
  /** The inflated AuthnRequest XML. */
  xml: string;
  relayState: string | null;
}

/** Follows a start URL as a browser would, up to the identity provider, and reads the AuthnRequest it carries. */
export async function startSignIn(startURL: string, relayState?: string): Promise<AuthnRequest> {
  const url = new URL(startURL);
  if (relayState !== undefined) url.searchParams.set('RelayState', relayState);
  const response = await fetch(url, { redirect: 'manual' });
  if (response.status !== 302) throw new Error(`start answered ${response.status}: ${await response.text()}`);
  const location = new URL(response.headers.get('location')!);
  const xml = inflateRawSync(Buffer.from(location.searchParams.get('SAMLRequest')!, 'base64')).toString('utf8');
  const id = /<samlp:AuthnRequest[^>]*\sID="([^"]+)"/.exec(xml)?.[1];
  if (!id) throw new Error(`no AuthnRequest ID in ${xml}`);
  return { location, id, xml, relayState: location.searchParams.get('RelayState') };
}

export interface ResponseOptions {
  /** Who signs the assertion, and whose entity id issues it (unless `issuer`). */
  idp: IdentityProvider;
  /** The service provider: its ACS URL (Destination and Recipient unless overridden) and entity id (the audience). */
  acsURL: string;
  audience: string;
  /** The AuthnRequest answered; null: an unsolicited (IdP-initiated) response. */
  inResponseTo: string | null;
  /** The identity provider's time (the service's test clock, so that both agree). */
  now: Date;
  nameID?: string;
  nameIDFormat?: string;
  attributes?: Record<string, string>;
  /** How long the assertion may be presented (Conditions and SubjectConfirmationData NotOnOrAfter); default 5 minutes. */
  lifetimeMs?: number;
  destination?: string;
  recipient?: string;
  issuer?: string;
  assertionId?: string;
  /** The key that signs the assertion; null leaves it unsigned. Default: the identity provider's own. */
  signingKey?: string | null;
}

const escapeXml = (text: string) => text.replace(/[<>&"]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;' })[c]!);
const xmlId = () => `_${randomBytes(16).toString('hex')}`;

/** A SAML Response with one assertion, signed as options say, base64-encoded for the POST binding. */
export function samlResponse(options: ResponseOptions): string {
  const { idp, now } = options;
  const at = (offsetMs: number) => new Date(now.getTime() + offsetMs).toISOString();
  const lifetime = options.lifetimeMs ?? 5 * 60_000;
  const inResponseTo = options.inResponseTo === null ? '' : ` InResponseTo="${escapeXml(options.inResponseTo)}"`;
  const attributes = Object.entries(options.attributes ?? {})
    .map(
      ([name, value]) =>
        `<saml:Attribute Name="${escapeXml(name)}"><saml:AttributeValue>${escapeXml(value)}</saml:AttributeValue></saml:Attribute>`,
    )
    .join('');
  const assertion =
    `<saml:Assertion xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion" ID="${options.assertionId ?? xmlId()}" Version="2.0" IssueInstant="${at(0)}">` +
    `<saml:Issuer>${escapeXml(options.issuer ?? idp.entityID)}</saml:Issuer>` +
    '<saml:Subject>' +
    `<saml:NameID Format="${options.nameIDFormat ?? EMAIL_FORMAT}">${escapeXml(options.nameID ?? 'someone@example.com')}</saml:NameID>` +
    '<saml:SubjectConfirmation Method="urn:oasis:names:tc:SAML:2.0:cm:bearer">' +
    `<saml:SubjectConfirmationData Recipient="${escapeXml(options.recipient ?? options.acsURL)}"${inResponseTo} NotOnOrAfter="${at(lifetime)}"/>` +
    '</saml:SubjectConfirmation>' +
    '</saml:Subject>' +
    `<saml:Conditions NotBefore="${at(-60_000)}" NotOnOrAfter="${at(lifetime)}">` +
    `<saml:AudienceRestriction><saml:Audience>${escapeXml(options.audience)}</saml:Audience></saml:AudienceRestriction>` +
    '</saml:Conditions>' +
    `<saml:AuthnStatement AuthnInstant="${at(0)}" SessionIndex="${xmlId()}">` +
    '<saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext>' +
    '</saml:AuthnStatement>' +
    (attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '') +
    '</saml:Assertion>';
  const signingKey = options.signingKey === undefined ? idp.privateKey : options.signingKey;
  const signed = signingKey === null ? assertion : sign(assertion, signingKey);
  const response =
    `<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="${xmlId()}" Version="2.0" IssueInstant="${at(0)}"` +
    ` Destination="${escapeXml(options.destination ?? options.acsURL)}"${inResponseTo}>` +
    `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${escapeXml(options.issuer ?? idp.entityID)}</saml:Issuer>` +
    '<samlp:Status><samlp:StatusCode Value="urn:oasis:names:tc:SAML:2.0:status:Success"/></samlp:Status>' +
    signed +
    '</samlp:Response>';
  return Buffer.from(response, 'utf8').toString('base64');
}

/** The assertion with an enveloped signature, placed after its Issuer as the schema orders it. */
function sign(assertion: string, privateKey: string): string {
  const signature = new SignedXml({
    privateKey,
    canonicalizationAlgorithm: 'http://www.w3.org/2001/10/xml-exc-c14n#',
    signatureAlgorithm: 'http://www.w3.org/2001/04/xmldsig-more#rsa-sha256',
  });
  signature.addReference({
    xpath: "//*[local-name(.)='Assertion']",
    transforms: ['http://www.w3.org/2000/09/xmldsig#enveloped-signature', 'http://www.w3.org/2001/10/xml-exc-c14n#'],
    digestAlgorithm: 'http://www.w3.org/2001/04/xmlenc#sha256',
  });
  signature.computeSignature(assertion, { location: { reference: "//*[local-name(.)='Issuer']", action: 'after' } });
  return signature.getSignedXml();
}

/** Posts a response to an ACS URL as the browser does after the identity provider's page. */
export async function postResponse(acsURL: string, response: string, relayState?: string) {
  const form = new URLSearchParams({ SAMLResponse: response, ...(relayState !== undefined && { RelayState: relayState }) });
  const answer = await fetch(acsURL, { method: 'POST', body: form, redirect: 'manual' });
  const text = await answer.text();
  return { status: answer.status, headers: answer.headers, body: text ? JSON.parse(text) : undefined, text };
}
