/** What the campaign routes share: their 404 and how the OpenAPI document describes it and a 400. */
import { notFound } from '../http/errors.ts';

/** SPEC "Errors": `{ "error": "Campaign not found" }`. */
export const campaignNotFound = () => notFound('Campaign');

export const notFoundResponse = { description: '`{ "error": "Campaign not found" }`' };
export const badRequestResponse = { description: 'Invalid body (`issue` and `path` name the first bad field)' };
