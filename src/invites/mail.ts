// The e-mail an invite sends, and the links it holds.
import type { MemberRole } from '../generated/prisma/enums.js';
import type { Services } from '../kernel/context.js';
import type { Mail } from '../mail.js';

type WithConfig = Pick<Services, 'config'>;

/** The page that redeems an e-mail invite (pages.ts). */
export const joinUrl = (services: WithConfig, secret: string) => `${services.config.publicUrl}/join/${secret}`;

/** Where an SSO sign-in with a SAML provider starts (served by src/sso). */
export const ssoStartUrl = (services: WithConfig, providerId: string) => `${services.config.publicUrl}/sso/saml/${providerId}/start`;

export const roleName = (role: MemberRole | null) => (role ? `the role "${role}"` : 'guest access');

export interface Invitation {
  to: string;
  organization: string;
  inviter: string;
  role: MemberRole | null;
  expiresAt: Date;
  /** An ordinary invite's single-use link. */
  joinUrl?: string;
  /** An SSO invite's sign-in pages, one per active SAML provider of the organization. */
  ssoStartUrls?: string[];
}

export function invitationMail(invitation: Invitation): Mail {
  const how = invitation.joinUrl
    ? [
        `Accept the invitation here: ${invitation.joinUrl}`,
        '',
        `The link works once, until ${invitation.expiresAt.toISOString()}. Do not forward it: whoever opens it joins as you.`,
      ]
    : ['You join by signing in with your organization’s single sign-on:', ...(invitation.ssoStartUrls ?? []).map((url) => `  ${url}`)];
  return {
    to: invitation.to,
    subject: `${invitation.inviter} invited you to ${invitation.organization}`,
    text: [
      'Hello,',
      '',
      `${invitation.inviter} invited you to join the organization "${invitation.organization}" with ${roleName(invitation.role)}.`,
      '',
      ...how,
      '',
      'If you did not expect this invitation, you can ignore this e-mail.',
      '',
    ].join('\n'),
  };
}
