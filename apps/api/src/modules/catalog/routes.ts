import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import {
  ZAgendaItem,
  ZAgendaItemInput,
  ZBookingQuestion,
  ZBookingQuestionInput,
  ZBookingQuestionPatch,
  ZCancellationPolicy,
  ZCancellationPolicyInput,
  ZFileFolder,
  ZFileFolderInput,
  ZInventoryCategory,
  ZInventoryCategoryInput,
  ZInventoryItem,
  ZInventoryItemInput,
  ZInventoryTag,
  ZMeetingPoint,
  ZMeetingPointInput,
  ZPricingCategory,
  ZPricingCategoryInput,
  ZPricingCategoryPatch,
  ZPricingRate,
  ZPricingRateInput,
  ZPricingRatePatch,
  patchOf,
  toMajorText,
} from '@tourdesk/contracts';
import { registerCrud, tenantScope } from '../../lib/crud';
import { manageCatalog, manageInventory, viewCatalog } from './access';
import { presentRate, rateValues } from './pricing-rates';
import * as q from './queries';
import * as svc from './resources';

/** The catalogue's simple resources, each declared with registerCrud(); their rules are resources.ts's. */
export function registerCatalogResources(app: FastifyInstance) {
  registerCrud(app, {
    path: '/api/pricing-categories/',
    tag: 'pricing-categories',
    noun: 'pricing category',
    ...q.pricingCategoryCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZPricingCategoryInput,
    patch: ZPricingCategoryPatch,
    output: ZPricingCategory,
    csv: {
      file: 'pricing-categories',
      columns: [
        { header: 'label', value: (c) => c.label },
        { header: 'type', value: (c) => c.type },
        { header: 'min_age', value: (c) => c.min_age ?? '' },
        { header: 'max_age', value: (c) => c.max_age ?? '' },
        { header: 'occupies_seat', value: (c) => (c.occupies_seat ? 'yes' : 'no') },
        { header: 'created_at', value: (c) => c.created_at },
      ],
    },
    values: svc.pricingCategoryValues,
    present: svc.presentPricingCategories,
    beforeDelete: svc.beforeDeletePricingCategory,
    unique: { attr: 'label', detail: 'A pricing category with this label already exists.' },
  });

  registerCrud(app, {
    path: '/api/meeting-points/',
    tag: 'meeting-points',
    noun: 'meeting point',
    ...q.meetingPointCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZMeetingPointInput,
    patch: patchOf(ZMeetingPointInput),
    output: ZMeetingPoint,
    values: svc.meetingPointValues,
    present: svc.presentMeetingPoints,
    beforeDelete: svc.beforeDeleteMeetingPoint,
  });

  registerCrud(app, {
    path: '/api/booking-questions/',
    tag: 'booking-questions',
    noun: 'booking question',
    ...q.bookingQuestionCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZBookingQuestionInput,
    patch: ZBookingQuestionPatch,
    output: ZBookingQuestion,
    values: svc.bookingQuestionValues,
    present: svc.presentBookingQuestions,
    beforeDelete: svc.beforeDeleteBookingQuestion,
  });

  registerCrud(app, {
    path: '/api/cancellation-policies/',
    tag: 'cancellation-policies',
    noun: 'cancellation policy',
    ...q.cancellationPolicyCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZCancellationPolicyInput,
    patch: patchOf(ZCancellationPolicyInput),
    output: ZCancellationPolicy,
    values: svc.cancellationPolicyValues,
    present: svc.presentCancellationPolicies,
  });

  registerCrud(app, {
    path: '/api/inventory-item-categories/',
    tag: 'inventory',
    noun: 'inventory item category',
    ...q.inventoryCategoryCrud,
    read: manageInventory,
    write: manageInventory,
    input: ZInventoryCategoryInput,
    patch: patchOf(ZInventoryCategoryInput),
    output: ZInventoryCategory,
    csv: {
      file: 'inventory-categories',
      columns: [
        { header: 'name', value: (c) => c.name },
        { header: 'items', value: (c) => c.item_count },
        { header: 'created_at', value: (c) => c.created_at },
      ],
    },
    values: svc.inventoryCategoryValues,
    present: svc.presentInventoryCategories,
    unique: { attr: 'name', detail: 'A category with this name already exists.' },
  });

  registerCrud(app, {
    path: '/api/inventory-items/',
    tag: 'inventory',
    noun: 'inventory item',
    ...q.inventoryItemCrud,
    read: manageInventory,
    write: manageInventory,
    input: ZInventoryItemInput,
    patch: patchOf(ZInventoryItemInput),
    output: ZInventoryItem,
    csv: {
      file: 'inventory-items',
      columns: [
        { header: 'name', value: (i) => i.name },
        { header: 'type', value: (i) => i.type },
        { header: 'category', value: (i) => i.category?.name ?? '' },
        { header: 'tags', value: (i) => i.tags.join('; ') },
        { header: 'currency', value: (i) => i.currency },
        { header: 'price', value: (i) => ({ amount: toMajorText(i.price, i.currency) }) },
        { header: 'stock', value: (i) => i.stock ?? '' },
        { header: 'description', value: (i) => i.description },
        { header: 'created_at', value: (i) => i.created_at },
      ],
    },
    values: svc.inventoryItemValues,
    present: svc.presentInventoryItems,
    beforeDelete: svc.beforeDeleteInventoryItem,
  });

  app.get(
    '/api/inventory-item-tags/',
    {
      config: { access: manageInventory },
      schema: {
        tags: ['inventory'],
        summary: 'Every tag used on inventory items, with how many items carry it',
        response: { 200: z.array(ZInventoryTag) },
      },
    },
    (request) => tenantScope(request, (ctx) => svc.inventoryTags(ctx)),
  );

  registerCrud(app, {
    path: '/api/agenda-items/',
    tag: 'schedules',
    noun: 'agenda item',
    ...q.agendaItemCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZAgendaItemInput,
    patch: patchOf(ZAgendaItemInput).omit({ experience: true }),
    output: ZAgendaItem,
    values: svc.agendaItemValues,
    present: svc.presentAgendaItems,
  });

  registerCrud(app, {
    path: '/api/file-folders/',
    tag: 'media',
    noun: 'folder',
    ...q.fileFolderCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZFileFolderInput,
    patch: patchOf(ZFileFolderInput),
    output: ZFileFolder,
    values: svc.fileFolderValues,
    present: svc.presentFileFolders,
    unique: { attr: 'name', detail: 'A folder with this name already exists.' },
  });
}

/** Pricing rates (no two prices of one category cover the same day: pricing-rates.ts). */
export function registerPricingRates(app: FastifyInstance) {
  registerCrud(app, {
    path: '/api/pricing-rates/',
    tag: 'pricing-rates',
    noun: 'pricing rate',
    ...q.pricingRateCrud,
    read: viewCatalog,
    write: manageCatalog,
    input: ZPricingRateInput,
    patch: ZPricingRatePatch,
    output: ZPricingRate,
    values: rateValues,
    present: async (_ctx, rows) => rows.map(presentRate),
  });
}
