import { z } from 'zod';
import { DocumentSchema, IdSchema, MergeRulesSchema, QueryBoolean, RoleSchema, Timestamp, patchBody, text } from './common';

/**
 * A field the public client may send for a feature this server does not have: refused with
 * a message that says so, rather than as an unknown field or, worse, silently ignored.
 */
export function unsupported(reason: string) {
  return z
    .unknown()
    .refine(() => false, reason)
    .optional()
    .meta({ description: `Refused: ${reason}.` });
}

const Permissions = z.object({
  view: z.boolean(),
  /** Can open the organization in the application: any member, guests included. */
  access: z.boolean(),
  admin: z.boolean(),
  ownTeam: z.boolean(),
  createContent: z.boolean(),
  createOpenAPISpec: z.boolean(),
  ingestConversations: z.boolean(),
  viewBilling: z.boolean(),
  listMembers: z.boolean(),
  listTeams: z.boolean(),
  listIntegrations: z.boolean(),
  listInstallations: z.boolean(),
  installIntegration: z.boolean(),
});

export const OrganizationSchema = z
  .object({
    object: z.literal('organization'),
    id: z.string(),
    title: z.string(),
    createdAt: Timestamp,
    emailDomains: z.array(z.string()),
    hostname: z.string().optional(),
    type: z.string(),
    useCase: z.string().optional(),
    communityType: z.string().optional(),
    defaultRole: RoleSchema.nullable(),
    defaultContent: z.object({ type: z.string(), site: z.string().optional() }).optional(),
    sso: z.boolean(),
    ai: z.boolean(),
    inviteLinks: z.boolean(),
    plan: z.string(),
    /** No trials on a self-hosted server; the public client reads `status` and `count`. */
    trial: z.object({ status: z.string(), count: z.number().int(), endDate: Timestamp.optional(), decision: z.string().optional() }),
    mergeRules: MergeRulesSchema,
    customHostname: z.string().optional(),
    urls: z.object({ location: z.string(), app: z.string(), logo: z.string().optional() }),
    permissions: Permissions,
  })
  .meta({ id: 'Organization' });
export type Organization = z.infer<typeof OrganizationSchema>;

export const TitleSchema = text(256, 1).refine((s) => s.trim().length > 0, 'must not be blank');

const EmailDomain = z
  .string()
  .max(253)
  .regex(/^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/i, 'must be a domain name such as example.com');

/**
 * The organization's name in published-site addresses (`/s/<hostname>/<site>`): a subdomain
 * label such as `acme` (the specification's Subdomain format, what the public client sends),
 * or a full hostname such as `docs.example.com`.
 */
const Hostname = z
  .string()
  .max(253)
  .regex(
    /^([a-z0-9][a-z0-9-]{1,30}[a-z0-9]|([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9])$/,
    'must be a subdomain such as acme (3 to 32 letters, digits and -) or a hostname such as docs.example.com',
  );

export const HttpUrlSchema = z
  .string()
  .max(2048)
  .url()
  .refine((u) => /^https?:\/\//i.test(u), 'must be an http(s) URL');

export const CreateOrganizationBody = z.strictObject({
  title: TitleSchema,
  emailDomains: z.array(EmailDomain).max(50).optional(),
  onboardingPreferences: unsupported('site onboarding preferences are not supported by this server'),
});

export const CreateOrganizationQuery = z.object({
  /** Also create a documentation site, with one space, as the organization's default content. */
  withDefaultSite: QueryBoolean.optional(),
  /** With `withDefaultSite`: an OpenAPI specification to import and reference from the site's space. */
  openapiUrl: z
    .string()
    .max(2048)
    .refine((u) => /^https?:\/\//i.test(u) && URL.canParse(u), 'must be an http or https URL')
    .optional(),
});

export const UpdateOrganizationBody = patchBody({
  title: TitleSchema.optional(),
  emailDomains: z.array(EmailDomain).max(50).optional(),
  hostname: Hostname.nullable().optional(),
  defaultRole: RoleSchema.nullable().optional(),
  defaultContent: z
    .strictObject({ type: z.literal('site'), site: IdSchema })
    .nullable()
    .optional(),
  logo: HttpUrlSchema.nullable().optional(),
  sso: z.boolean().optional(),
  ai: z.boolean().optional(),
  inviteLinks: z.boolean().optional(),
  mergeRules: MergeRulesSchema.optional(),
});
export type UpdateOrganizationBody = z.infer<typeof UpdateOrganizationBody>;

export const AgentInstructionsSchema = z
  .object({
    object: z.literal('agent-instructions'),
    instructions: DocumentSchema,
    updatedAt: Timestamp.optional(),
    updatedBy: z.string().optional(),
    urls: z.object({ location: z.string() }),
    /** `edit`: replace the instructions (admins). */
    permissions: z.object({ view: z.boolean(), edit: z.boolean() }),
  })
  .meta({ id: 'AgentInstructions' });

export const UpdateAgentInstructionsBody = z.strictObject({ instructions: DocumentSchema });

export const PingResponse = z.object({
  platformVisitorClaims: z.string().optional(),
  /** The same claims under the name the public client reads. */
  gitbookVisitorClaims: z.string().optional(),
});

const InviteEmail = z.string().max(320).email();

/** As the public client sends it: an address, or an address with its own role (null: a guest). */
export const InviteBody = z.strictObject({
  emails: z
    .array(z.union([InviteEmail, z.strictObject({ email: InviteEmail, role: RoleSchema.nullable() })]))
    .min(1)
    .max(100),
  role: RoleSchema.nullable().optional(),
  /** Invite as SSO users: they sign in through the organization's identity provider. */
  sso: z.boolean().optional(),
});

export const InviteResult = z.object({
  /** The ids of the invited users, in the order of `emails`. */
  users: z.array(z.string()),
  invited: z.number().int(),
});
