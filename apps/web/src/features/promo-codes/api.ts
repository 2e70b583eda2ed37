import type { TExperience, TPaginated, TPricingCategory, TPromoCode, TPromoCodeInput, TStore } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

const tagged = api.enhanceEndpoints({ addTagTypes: ['PromoCode'] });

// Endpoint names are global to the one api: everything here names the promo code.
export const promoCodesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    promoCodes: build.query<TPaginated<TPromoCode>, Record<string, string | number>>({
      query: (params) => ({ url: 'promo-codes/', params }),
      providesTags: [{ type: 'PromoCode', id: 'LIST' }],
    }),
    createPromoCode: build.mutation<TPromoCode, TPromoCodeInput>({
      query: (body) => ({ url: 'promo-codes/', method: 'POST', body }),
      invalidatesTags: [{ type: 'PromoCode', id: 'LIST' }],
    }),
    updatePromoCode: build.mutation<TPromoCode, Partial<TPromoCodeInput> & { id: string }>({
      query: ({ id, ...body }) => ({ url: `promo-codes/${id}/`, method: 'PATCH', body }),
      invalidatesTags: [{ type: 'PromoCode', id: 'LIST' }],
    }),
    /** The offers and pricing categories a code may be limited to, and the stores (the first 50 of each). */
    promoOffers: build.query<TExperience[], void>({
      query: () => ({ url: 'experiences/', params: { page_size: 50 } }),
      transformResponse: (page: TPaginated<TExperience>) => page.results,
    }),
    promoCategories: build.query<TPricingCategory[], void>({
      query: () => ({ url: 'pricing-categories/', params: { page_size: 50 } }),
      transformResponse: (page: TPaginated<TPricingCategory>) => page.results,
    }),
    promoStores: build.query<TStore[], void>({
      query: () => ({ url: 'stores/', params: { page_size: 50 } }),
      transformResponse: (page: TPaginated<TStore>) => page.results,
    }),
  }),
});

export const { usePromoCodesQuery, useCreatePromoCodeMutation, useUpdatePromoCodeMutation, usePromoOffersQuery, usePromoCategoriesQuery, usePromoStoresQuery } = promoCodesApi;
