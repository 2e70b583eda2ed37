import type { FastifyInstance } from 'fastify';
import { toMajorText, ZPromoCode, ZPromoCodeInput, ZPromoCodePatch } from '@tourdesk/contracts';
import { bpToPercentText } from '@tourdesk/contracts/percent';
import type { RouteAccess } from '../../lib/access';
import { registerCrud } from '../../lib/crud';
import { AppError } from '../../lib/errors';
import * as q from './queries';
import * as svc from './service';

/**
 * /api/promo-codes/: the organisation's promo codes (list with uses and revenue, paginated in SQL,
 * its CSV, create, edit, deactivate with `{ active: false }`; a code used by an order is not deleted).
 */
const managePromo: RouteAccess = { permissions: ['Manage stores'], features: ['stores'] };

export function registerPromoCodes(app: FastifyInstance) {
  registerCrud(app, {
    path: '/api/promo-codes/',
    tag: 'promo-codes',
    noun: 'promo code',
    ...q.promoCrud,
    read: managePromo,
    write: managePromo,
    input: ZPromoCodeInput,
    patch: ZPromoCodePatch,
    output: ZPromoCode,
    values: (ctx, input, existing) => svc.promoValues(ctx, input, existing),
    present: (ctx, rows) => svc.presentPromoCodes(ctx, rows),
    unique: { attr: 'code', detail: 'Another promo code of yours is written this way: choose another code.' },
    beforeDelete: async (_ctx, row) => {
      if (row.uses > 0) throw new AppError('conflict', 'This code has been used by orders: deactivate it instead.');
    },
    csv: {
      file: 'promo-codes',
      columns: [
        { header: 'code', value: (c) => c.code },
        { header: 'description', value: (c) => c.description },
        { header: 'kind', value: (c) => c.kind },
        { header: 'percent', value: (c) => (c.kind === 'percent' ? bpToPercentText(c.percent_bp, 2) : '') },
        { header: 'currency', value: (c) => c.currency },
        { header: 'amount', value: (c) => (c.kind === 'amount' ? { amount: toMajorText(c.amount, c.currency) } : '') },
        { header: 'valid_from', value: (c) => c.valid_from ?? '' },
        { header: 'valid_until', value: (c) => c.valid_until ?? '' },
        { header: 'departure_from', value: (c) => c.departure_from ?? '' },
        { header: 'departure_until', value: (c) => c.departure_until ?? '' },
        { header: 'min_order', value: (c) => ({ amount: toMajorText(c.min_order, c.currency) }) },
        { header: 'max_uses', value: (c) => c.max_uses ?? '' },
        { header: 'max_uses_per_customer', value: (c) => c.max_uses_per_customer ?? '' },
        { header: 'store', value: (c) => c.store_name ?? '' },
        { header: 'active', value: (c) => (c.active ? 'yes' : 'no') },
        { header: 'uses', value: (c) => c.uses },
        { header: 'revenue', value: (c) => ({ amount: toMajorText(c.revenue, c.currency) }) },
        { header: 'created_at', value: (c) => c.created_at },
      ],
    },
  });
}
