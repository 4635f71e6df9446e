// What each site type includes: the `features` of a Site, as GitBook's published spec (0.202) lists them, each with
// the plan it first belongs to. The spec names the features (SiteFeatureKey) but maps none to a plan; this table is
// ours. It describes the plan; a self-hosted instance gates no behaviour by it, so no feature is ever frozen.
import type { SiteType } from '../generated/prisma/enums.js';

/** SiteFeatureKey of the published spec 0.202, in its order: no other feature may be listed. */
export const SITE_FEATURE_KEYS = [
  'sites-adaptive-content',
  'sites-advanced-customization',
  'sites-advanced-insights',
  'sites-ads',
  'sites-ai-search',
  'sites-ai-assistant',
  'sites-ai-insights',
  'sites-fix-broken-links',
  'sites-connections',
  'sites-content-gaps',
  'sites-channels',
  'sites-embed',
  'sites-api-playground',
  'sites-basic-customization',
  'sites-broken-links',
  'sites-custom-domain',
  'sites-custom-fonts',
  'sites-custom-subdirectory',
  'sites-full-text-search',
  'sites-multivariant-site',
  'sites-no-custom-domain',
  'sites-page-feedback',
  'sites-page-traffic-insights',
  'sites-pdf-export',
  'sites-preview-deployments',
  'sites-public-visibility',
  'sites-redirects',
  'sites-search-insights',
  'sites-sections',
  'sites-seo',
  'sites-share-links',
  'sites-unlisted-visibility',
  'sites-user-contribution',
  'sites-visitor-authentication',
  'sites-visitors',
] as const;
export type SiteFeatureKey = (typeof SITE_FEATURE_KEYS)[number];

export interface SiteFeature {
  id: SiteFeatureKey;
  /** The plan the feature first belongs to. */
  plan: SiteType;
  frozen: boolean;
}

/** Every site: publishing, search, the basic look, and its own URL paths. */
const BASIC: readonly SiteFeatureKey[] = [
  'sites-basic-customization',
  'sites-full-text-search',
  'sites-public-visibility',
  'sites-unlisted-visibility',
  'sites-page-feedback',
  'sites-pdf-export',
  'sites-api-playground',
  'sites-seo',
  'sites-redirects',
];

/** Premium adds its own domain, structure (sections, variants), private sharing and insights. */
const PREMIUM: readonly SiteFeatureKey[] = [
  'sites-custom-domain',
  'sites-advanced-customization',
  'sites-sections',
  'sites-multivariant-site',
  'sites-share-links',
  'sites-ai-search',
  'sites-page-traffic-insights',
  'sites-search-insights',
  'sites-broken-links',
];

/** Ultimate adds authenticated and adaptive audiences, a subdirectory behind a proxy, and the rest of the insights. */
const ULTIMATE: readonly SiteFeatureKey[] = [
  'sites-visitor-authentication',
  'sites-adaptive-content',
  'sites-custom-subdirectory',
  'sites-custom-fonts',
  'sites-ai-assistant',
  'sites-advanced-insights',
  'sites-visitors',
  'sites-user-contribution',
  'sites-preview-deployments',
];

const listed = (plan: SiteType, keys: readonly SiteFeatureKey[]) => keys.map((id): SiteFeature => ({ id, plan, frozen: false }));

const basic = listed('basic', BASIC);
const premium = [...basic, ...listed('premium', PREMIUM)];
const ultimate = [...premium, ...listed('ultimate', ULTIMATE)];

/**
 * The features of each site type. Legacy types keep what their plan had; a sponsored site (a community project's,
 * GitBook's free premium offer) has premium's features and shows ads.
 */
export const SITE_FEATURES: Record<SiteType, readonly SiteFeature[]> = {
  basic,
  premium,
  ultimate,
  sponsored: [...premium, ...listed('sponsored', ['sites-ads'])],
  legacy_basic: basic,
  legacy_premium: premium,
};
