import type { TExperience } from '@tourdesk/contracts';

export const STATUS_COLOR: Record<TExperience['status'], string> = { Draft: 'gray', Active: 'green', Inactive: 'orange' };

/** The editor's steps, in order, as the spec names them in its routes. */
export const EDITOR_STEPS = [
  { step: 'basic-info', label: 'Basic Info' },
  { step: 'description', label: 'Description' },
  { step: 'schedule', label: 'Schedule' },
  { step: 'pricing', label: 'Pricing' },
  { step: 'media', label: 'Media' },
  { step: 'settings', label: 'Settings' },
  { step: 'booking-info', label: 'Booking info' },
  { step: 'preview', label: 'Preview' },
] as const;
export type EditorStep = (typeof EDITOR_STEPS)[number]['step'];

export const editorPath = (id: string, step: EditorStep = 'basic-info') => `/products/experiences/editor/${id}/${step}`;

/** The spec's success messages: offer created / updated / copied. */
export const OFFER_CREATED = 'Offer created!';
export const OFFER_COPIED = 'Offer copied!';
