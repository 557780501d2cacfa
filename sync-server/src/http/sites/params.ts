import { IdSchema } from '@quire/shared';
import { OrgParams } from '../params';

export const SiteParams = OrgParams.extend({ siteId: IdSchema });
export const SectionParams = SiteParams.extend({ siteSectionId: IdSchema });
export const SectionGroupParams = SiteParams.extend({ siteSectionGroupId: IdSchema });
export const SectionGroupSectionParams = SectionGroupParams.extend({ siteSectionId: IdSchema });
export const SiteSpaceParams = SiteParams.extend({ siteSpaceId: IdSchema });
export const RedirectParams = SiteParams.extend({ siteRedirectId: IdSchema });
