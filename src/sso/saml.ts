// SAML 2.0 as this service speaks it, as one service provider per configured SAML provider: its URLs and metadata, the
// AuthnRequest that starts a sign-in (HTTP-Redirect binding), and the checks a response passes before anyone signs in.
// node-saml parses the response and verifies the assertion's signature, its conditions and its audience. What it
// leaves to its caller (the issuer, the destination and recipient, the subject's confirmation window, InResponseTo)
// is checked here, on the assertion node-saml verified: never on the unsigned rest of the response, except the
// Response's own Destination and InResponseTo, which may only agree with the signed values.
import { X509Certificate } from 'node:crypto';
import type { Profile, SamlConfig } from '@node-saml/node-saml';
import { z } from 'zod';
import type { Config } from '../config.js';
import type { Clock } from '../kernel/context.js';
import { ApiError } from '../kernel/errors.js';

/** How far the identity provider's clock may be from ours. */
const CLOCK_SKEW_MS = 60_000;
/** How long an AuthnRequest this service issued may be answered. */
export const REQUEST_LIFETIME_MS = 10 * 60_000;

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';
/** Where identity providers put an e-mail address when the NameID is not one (Okta, Shibboleth, Azure AD, ...). */
const EMAIL_ATTRIBUTES = [
  'email',
  'mail',
  'emailAddress',
  'urn:oid:0.9.2342.19200300.100.1.3',
  'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress',
];
const NAME_ATTRIBUTES = [
  'displayName',
  'name',
  'urn:oid:2.16.840.1.113730.3.1.241',
  'http://schemas.microsoft.com/identity/claims/displayname',
];
const MAX_DISPLAY_NAME = 255;

/** A refused sign-in: `reason` names the failed check in the log (never the assertion's content); the message is the caller's. */
export class SamlRefusal extends ApiError {
  constructor(
    readonly reason: string,
    message: string,
    status: 400 | 403 | 404 | 415 = 403,
  ) {
    super(status, message);
  }
}

/** The service provider's side of a provider: where identity providers send users and responses. */
export function serviceOf(config: Pick<Config, 'publicUrl'>, providerId: string) {
  const entityID = `${config.publicUrl}/sso/saml/${providerId}`;
  return { entityID, acsURL: `${entityID}/acs`, startURL: `${entityID}/start` };
}

/** A provider that can sign people in: every field of its identity provider is set. */
export interface ActiveProvider {
  id: string;
  entityID: string;
  certificate: string;
  ssoURL: string;
}

const PEM = /^-----BEGIN CERTIFICATE-----([A-Za-z0-9+/=\s]+)-----END CERTIFICATE-----$/;
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

/** The certificate in PEM, from PEM or bare base64 DER; null when the text is not exactly one X.509 certificate. */
export function certificatePem(text: string): string | null {
  const trimmed = text.trim();
  const body = (PEM.exec(trimmed)?.[1] ?? trimmed).replace(/\s+/g, '');
  if (!BASE64.test(body)) return null;
  const der = Buffer.from(body, 'base64');
  try {
    const certificate = new X509Certificate(der);
    // Bytes after the certificate would be dropped silently: refuse them instead.
    return certificate.raw.equals(der) ? certificate.toString().trim() : null;
  } catch {
    return null;
  }
}

/**
 * node-saml, with what it loads (xml-crypto, xmldom, xml2js, xmlbuilder), on the first SAML request rather than at
 * start-up; and its own XML parser, so that this code and its signature checks read the same document the same way.
 */
let library: ReturnType<typeof loadLibrary> | undefined;
async function loadLibrary() {
  const [saml, xml] = await Promise.all([import('@node-saml/node-saml'), import('@node-saml/node-saml/lib/xml.js')]);
  /** node-saml reads the system time for every validity window; this one reads the service's clock. */
  class ClockedSaml extends saml.SAML {
    constructor(
      options: SamlConfig,
      private readonly clock: Clock,
    ) {
      super(options);
    }

    protected override checkTimestampsValidityError(_nowMs: number, notBefore: string, notOnOrAfter: string, maxTimeLimitMs?: number) {
      return super.checkTimestampsValidityError(this.clock.now().getTime(), notBefore, notOnOrAfter, maxTimeLimitMs);
    }
  }
  return { ...saml, ...xml, ClockedSaml };
}
const samlLibrary = () => (library ??= loadLibrary());

async function samlOf(config: Pick<Config, 'publicUrl'>, clock: Clock, provider: ActiveProvider, requestId?: string) {
  const { ClockedSaml, ValidateInResponseTo } = await samlLibrary();
  const service = serviceOf(config, provider.id);
  return new ClockedSaml(
    {
      entryPoint: provider.ssoURL,
      issuer: service.entityID,
      callbackUrl: service.acsURL,
      audience: service.entityID,
      idpCert: provider.certificate,
      identifierFormat: EMAIL_FORMAT,
      wantAssertionsSigned: true,
      // The assertion's signature is what is trusted; many identity providers sign nothing else.
      wantAuthnResponseSigned: false,
      // Checked here against SamlRequest, atomically and once per request (node-saml's cache is per process).
      validateInResponseTo: ValidateInResponseTo.never,
      // An exact PasswordProtectedTransport context makes identity providers refuse users who signed in with MFA or
      // Kerberos: the identity provider's policy decides how users authenticate.
      disableRequestedAuthnContext: true,
      acceptedClockSkewMs: CLOCK_SKEW_MS,
      ...(requestId && { generateUniqueId: () => requestId }),
    },
    clock,
  );
}

/** The SP metadata XML an identity provider imports: entity id, ACS URL, e-mail NameID, signed assertions wanted. */
export async function serviceMetadata(config: Pick<Config, 'publicUrl'>, providerId: string): Promise<string> {
  const { generateServiceProviderMetadata } = await samlLibrary();
  const service = serviceOf(config, providerId);
  return generateServiceProviderMetadata({
    issuer: service.entityID,
    callbackUrl: service.acsURL,
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
  });
}

/** The identity provider's URL with an AuthnRequest of id `requestId` (HTTP-Redirect binding) and the RelayState. */
export async function authorizeUrl(
  config: Pick<Config, 'publicUrl'>,
  clock: Clock,
  provider: ActiveProvider,
  requestId: string,
  relayState: string | undefined,
): Promise<string> {
  return (await samlOf(config, clock, provider, requestId)).getAuthorizeUrlAsync(relayState ?? '', undefined, {});
}

/** What a verified response says: who signed in, in answer to which request, and how long the assertion stays usable. */
export interface VerifiedAssertion {
  assertionId: string;
  requestId: string;
  /** Until then the assertion passes every time check: its replay record is kept that long. */
  usableUntil: Date;
  email: string;
  displayName: string | null;
}

/** An element as node-saml's xml2js parse gives it: attributes in `$`, text in `_`, child elements in arrays. */
interface XmlNode {
  $?: Record<string, string | undefined>;
  _?: string;
  [child: string]: unknown;
}

const children = (node: XmlNode | undefined, name: string) => (node?.[name] as XmlNode[] | undefined) ?? [];
const attribute = (node: XmlNode | undefined, name: string) => node?.$?.[name];

function timeOf(value: string | undefined): number | null {
  const ms = value === undefined ? Number.NaN : Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

/** A library failure as a refusal; its message may quote the assertion (audience, status message), so it is not passed on. */
async function libraryRefusal(error: unknown): Promise<SamlRefusal> {
  const { SamlStatusError } = await samlLibrary();
  const message = error instanceof Error ? error.message : '';
  if (error instanceof SamlStatusError) return new SamlRefusal('idp-status', 'The identity provider did not sign the user in.');
  if (/signature/i.test(message)) return new SamlRefusal('signature', 'The SAML assertion is not signed with the provider’s certificate.');
  if (/expired/i.test(message)) return new SamlRefusal('expired', 'The SAML assertion has expired.');
  if (/not yet valid/i.test(message)) return new SamlRefusal('not-yet-valid', 'The SAML assertion is not valid yet.');
  if (/audience/i.test(message)) return new SamlRefusal('audience', 'The SAML assertion is meant for another service.');
  return new SamlRefusal('invalid', 'The SAML response could not be verified.');
}

const addressedElsewhere = () => new SamlRefusal('destination', 'The SAML response is addressed to another service.');

/** The Response element's own Destination and InResponseTo (unsigned: they may only agree with the assertion). */
async function envelopeOf(responseXml: string) {
  const { parseDomFromString, xpath } = await samlLibrary();
  const document = await parseDomFromString(responseXml);
  const value = (name: string) => xpath.selectAttributes(document, `/*[local-name()='Response']/@${name}`)[0]?.value;
  return { destination: value('Destination'), inResponseTo: value('InResponseTo') };
}

const email = z.email().max(320);

/** The first text value of an attribute, among those names. */
function attributeText(attributes: Record<string, unknown>, names: readonly string[]): string | undefined {
  for (const name of names) {
    const values = ([] as unknown[]).concat(attributes[name] ?? []);
    const text = values.find((value): value is string => typeof value === 'string' && value.trim() !== '');
    if (text) return text.trim();
  }
  return undefined;
}

/** The user's e-mail address: the NameID when its format is emailAddress, else the first e-mail attribute. */
function emailOf(profile: Profile, attributes: Record<string, unknown>): string {
  const candidate = profile.nameIDFormat === EMAIL_FORMAT ? profile.nameID : attributeText(attributes, EMAIL_ATTRIBUTES);
  const parsed = email.safeParse(candidate?.trim().toLowerCase());
  if (!parsed.success) throw new SamlRefusal('no-email', 'The SAML assertion names no e-mail address.');
  return parsed.data;
}

/**
 * Verifies a base64 SAMLResponse posted to the provider's ACS URL. Refuses (SamlRefusal) a response that is unsigned,
 * signed with another key, expired or not yet valid, for another audience, issued by another identity provider,
 * addressed to another service, or unsolicited. Identity-provider-initiated sign-ins are refused: an unsolicited
 * response cannot be tied to a sign-in started here, which is what login CSRF and injected responses rely on; an
 * identity provider's tile can point at the provider's startURL instead.
 */
export async function verifyResponse(
  config: Pick<Config, 'publicUrl'>,
  clock: Clock,
  provider: ActiveProvider,
  samlResponse: string,
): Promise<VerifiedAssertion> {
  let profile: Profile | null;
  try {
    ({ profile } = await (await samlOf(config, clock, provider)).validatePostResponseAsync({ SAMLResponse: samlResponse }));
  } catch (error) {
    throw await libraryRefusal(error);
  }
  const assertion = (profile?.getAssertion?.() as { Assertion?: XmlNode } | undefined)?.Assertion;
  if (!profile || !assertion) throw new SamlRefusal('invalid', 'The SAML response holds no assertion.');

  if (children(assertion, 'Issuer')[0]?._?.trim() !== provider.entityID) {
    throw new SamlRefusal('issuer', 'The SAML assertion was issued by another identity provider.');
  }
  const service = serviceOf(config, provider.id);
  // The document node-saml parsed and verified: decoded the same way, it parses the same way.
  const envelope = await envelopeOf(Buffer.from(samlResponse, 'base64').toString('utf8'));
  if (envelope.destination !== undefined && envelope.destination !== service.acsURL) throw addressedElsewhere();

  // The Web Browser SSO profile's bearer confirmation: for our ACS URL, in answer to a request, within its window.
  const now = clock.now().getTime();
  const confirmations = children(children(assertion, 'Subject')[0], 'SubjectConfirmation')
    .filter((confirmation) => attribute(confirmation, 'Method') === BEARER)
    .map((confirmation) => children(confirmation, 'SubjectConfirmationData')[0])
    .filter((data) => attribute(data, 'Recipient') === service.acsURL);
  if (!confirmations.length) throw addressedElsewhere();
  const live = confirmations.find((data) => {
    const notOnOrAfter = timeOf(attribute(data, 'NotOnOrAfter'));
    const notBefore = timeOf(attribute(data, 'NotBefore'));
    return notOnOrAfter !== null && now - CLOCK_SKEW_MS < notOnOrAfter && (notBefore === null || now + CLOCK_SKEW_MS >= notBefore);
  });
  if (!live) throw new SamlRefusal('expired', 'The SAML assertion has expired.');
  const requestId = attribute(live, 'InResponseTo');
  if (!requestId) {
    throw new SamlRefusal('unsolicited', 'The SAML response answers no sign-in started here: start at the provider’s startURL.');
  }
  if (envelope.inResponseTo !== undefined && envelope.inResponseTo !== requestId) {
    throw new SamlRefusal('request', 'The SAML response answers no pending sign-in: start again.');
  }
  const assertionId = attribute(assertion, 'ID');
  if (!assertionId) throw new SamlRefusal('invalid', 'The SAML assertion has no ID.');

  const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
  return {
    assertionId,
    requestId,
    usableUntil: new Date(timeOf(attribute(live, 'NotOnOrAfter'))! + CLOCK_SKEW_MS),
    email: emailOf(profile, attributes),
    displayName: attributeText(attributes, NAME_ATTRIBUTES)?.slice(0, MAX_DISPLAY_NAME) ?? null,
  };
}
