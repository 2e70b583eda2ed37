import { RICH_TEXT_TAGS } from '@tourdesk/contracts';
import sanitizeHtml from 'sanitize-html';

/**
 * The long description is rich text written in the editor and shown in the public web store:
 * only formatting survives (paragraphs, emphasis, lists, headings, links); scripts, styles,
 * event handlers and unknown tags are removed before it is stored.
 */
export function sanitizeRichText(html: string): string {
  return sanitizeHtml(html, {
    allowedTags: RICH_TEXT_TAGS,
    allowedAttributes: { a: ['href', 'target', 'rel'] },
    allowedSchemes: ['http', 'https', 'mailto'],
    transformTags: { a: sanitizeHtml.simpleTransform('a', { rel: 'noopener noreferrer nofollow', target: '_blank' }) },
  }).trim();
}

/** The visible text of rich text, to tell whether a description says anything. */
export const plainText = (html: string) => sanitizeHtml(html, { allowedTags: [], allowedAttributes: {} }).trim();
