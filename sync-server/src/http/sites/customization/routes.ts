import {
  CustomizationQuery,
  PatchSiteSpaceCustomizationBody,
  PutSiteCustomizationBody,
  SiteCustomizationSettingsSchema,
} from '@quire/shared/schemas/siteCustomization';
import { apiRoute, body, json, noContent } from '../../openapi';
import { SiteParams, SiteSpaceParams } from '../params';

const tags = ['Site customization'];
const SITE = '/v1/orgs/{organizationId}/sites/{siteId}';

export const getSiteCustomization = apiRoute({
  method: 'get',
  path: `${SITE}/customization`,
  tags,
  summary: 'Customization of a site',
  request: { params: SiteParams, query: CustomizationQuery },
  responses: { 200: json(SiteCustomizationSettingsSchema) },
});
export const putSiteCustomization = apiRoute({
  method: 'put',
  path: `${SITE}/customization`,
  tags,
  summary: 'Replace the customization of a site',
  request: { params: SiteParams, body: body(PutSiteCustomizationBody) },
  responses: { 200: json(SiteCustomizationSettingsSchema) },
});
export const getSiteSpaceCustomization = apiRoute({
  method: 'get',
  path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
  tags,
  summary: 'Effective customization of a site space',
  request: { params: SiteSpaceParams, query: CustomizationQuery },
  responses: { 200: json(SiteCustomizationSettingsSchema) },
});
export const deleteSiteSpaceCustomization = apiRoute({
  method: 'delete',
  path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
  tags,
  summary: 'Remove every override of a site space',
  request: { params: SiteSpaceParams },
  responses: noContent,
});
export const patchSiteSpaceCustomization = apiRoute({
  method: 'patch',
  path: `${SITE}/site-spaces/{siteSpaceId}/customization`,
  tags,
  summary: 'Override the site customization for one site space (null resets an override)',
  request: { params: SiteSpaceParams, body: body(PatchSiteSpaceCustomizationBody) },
  responses: { 200: json(SiteCustomizationSettingsSchema, 'The effective settings of the site space') },
});
