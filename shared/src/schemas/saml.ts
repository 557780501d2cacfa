import { z } from 'zod';
import { IdSchema, RoleSchema, Timestamp, listOf, patchBody, text } from './common';
import { HttpUrlSchema, TitleSchema } from './organization';
import { TeamSchema } from './team';

/** `pending` until the provider has its entity id, certificate and sign-in URL; only `active` providers sign anyone in. */
export const SAML_PROVIDER_STATUSES = ['active', 'pending'] as const;
export type SamlProviderStatus = (typeof SAML_PROVIDER_STATUSES)[number];

export const SamlProviderSchema = z
  .object({
    object: z.literal('saml-provider'),
    id: z.string(),
    label: z.string(),
    /** `''` until set (the provider is then `pending`); so are `entityID` and `certificate`. */
    ssoURL: z.string(),
    entityID: z.string(),
    certificate: z.string(),
    defaultTeam: TeamSchema.optional(),
    defaultRole: RoleSchema.nullable(),
    createdAt: Timestamp,
    status: z.enum(SAML_PROVIDER_STATUSES),
    service: z.object({
      /** Where the identity provider posts its responses (Assertion Consumer Service). */
      acsURL: z.string(),
      /** Where a user starts signing in: redirects to the identity provider. */
      startURL: z.string(),
      /** This server's entity id for the provider; also the URL of its SAML metadata. */
      entityID: z.string(),
    }),
    urls: z.object({ location: z.string() }),
    /** Providers are read and changed by organization admins alone. */
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'SamlProvider' });
export type SamlProvider = z.infer<typeof SamlProviderSchema>;

/** The identity provider's entity id: a URI or URN, as the IdP's metadata gives it. */
const EntityId = text(1024, 1).refine((s) => s.trim() === s && s.length > 0, 'must not start or end with spaces');
/** PEM or bare base64 of the identity provider's signing certificate; the server checks it parses. */
const Certificate = text(16_384, 1);

/** A provider can be added by its label alone and completed later (it stays `pending` meanwhile). */
export const CreateSamlProviderBody = z.strictObject({
  label: TitleSchema,
  entityID: EntityId.optional(),
  certificate: Certificate.optional(),
  ssoURL: HttpUrlSchema.optional(),
  defaultTeam: IdSchema.nullable().optional(),
  defaultRole: RoleSchema.nullable().optional(),
});
export type CreateSamlProviderBody = z.infer<typeof CreateSamlProviderBody>;

export const UpdateSamlProviderBody = patchBody({
  label: TitleSchema.optional(),
  entityID: EntityId.optional(),
  certificate: Certificate.optional(),
  ssoURL: HttpUrlSchema.optional(),
  defaultTeam: IdSchema.nullable().optional(),
  defaultRole: RoleSchema.nullable().optional(),
});
export type UpdateSamlProviderBody = z.infer<typeof UpdateSamlProviderBody>;

export const SsoEntrySchema = z.object({ id: z.string(), label: z.string(), startURL: z.string() }).meta({ id: 'SsoEntry' });
/** Every provider at once (an organization has a handful), in the list envelope. */
export const SsoListSchema = listOf(SsoEntrySchema);

/** What the assertion consumer answers (as JSON when asked) after a successful sign-in. */
export const SsoSignInSchema = z.object({
  object: z.literal('sso-sign-in'),
  token: z.string(),
  user: z.object({ id: z.string(), email: z.string(), displayName: z.string() }),
  organization: z.string(),
  created: z.boolean(),
});
export type SsoSignIn = z.infer<typeof SsoSignInSchema>;
