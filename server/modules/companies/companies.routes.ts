import * as z from 'zod/mini';
import { MessageResponse } from '../../../src/contract/auth.ts';
import { CompanySearchQuery, CompanySearchResponse } from '../../../src/contract/companies.ts';
import { defineRoute } from '../../http/route.ts';
import { searchCompanyNames } from './companies.service.ts';

const error = (description: string) => ({ description, schema: MessageResponse });

export const companiesRoutes = [
  defineRoute({
    method: 'get',
    path: '/search/company-name/:text',
    // Donors use it on the match forms, signed in or not.
    access: 'anonymous',
    // The donor edit element and the public matching page search from nonprofits' own sites.
    cors: true,
    summary: 'Companies whose name starts with or contains the text (at least 3 characters), at most 20',
    tags: ['companies'],
    params: z.object({ text: z.string().check(z.maxLength(200, 'The search text is too long')) }),
    query: CompanySearchQuery,
    // A person typing a name searches often (300 ms after each pause).
    rateLimit: { ipFactor: 10 },
    responses: {
      200: { description: 'Matching companies, then the typed text as Other', schema: CompanySearchResponse },
      400: error('Type at least 3 characters to search companies.'),
      429: error('Too many attempts'),
    },
    handler: ({ deps, params, query }) =>
      searchCompanyNames(deps.db, params.text, {
        exclude: query.exclude === 'true',
        other: query.other === 'true',
      }),
  }),
];
