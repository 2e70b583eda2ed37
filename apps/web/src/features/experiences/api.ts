import type { TAgendaItem, TBookingConfig, TInventoryItem, TOfferChannels, TPoolUsage, TPoolUsageInput, TExperience, TExperienceFields, TExperiencePatch, TExperienceSummary, TImage, TMeetingPoint, TPaginated, TPricingCategory, TPricingRate, TPricingRateInput, TScheduleChange, TScheduleRule, TSlot, TVideo } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

/** What the price editor sends: the contract's price fields (the currency is the organisation's). */
export type RateInput = Omit<TPricingRateInput, 'currency'>;

export const experiencesApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The organisation's meeting points an offer picks from (Basic info) and shows (Preview). */
    meetingPoints: build.query<TPaginated<TMeetingPoint>, void>({ query: () => ({ url: 'meeting-points/', params: { page_size: 50 } }) }),
    scheduleRules: build.query<TScheduleRule[], string>({
      query: (experience) => ({ url: 'schedule-rules/', params: { experience } }),
      providesTags: ['Schedule'],
    }),
    createScheduleRule: build.mutation<TScheduleRule, Omit<TScheduleRule, 'id'>>({
      query: (body) => ({ url: 'schedule-rules/', method: 'POST', body }),
      invalidatesTags: ['Schedule', 'Experience'],
    }),
    deleteScheduleRule: build.mutation<TScheduleChange, string>({
      query: (id) => ({ url: `schedule-rules/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Schedule', 'Experience'],
    }),
    closeDate: build.mutation<void, { experience: string; date: string; reason?: string }>({
      query: (body) => ({ url: 'closed-dates/', method: 'POST', body }),
      invalidatesTags: ['Schedule', 'Experience'],
    }),
    agenda: build.query<{ results: TAgendaItem[] }, string>({
      query: (experience) => ({ url: 'agenda-items/', params: { experience, page_size: 50 } }),
      providesTags: ['Schedule'],
    }),
    addAgendaItem: build.mutation<TAgendaItem, Omit<TAgendaItem, 'id'>>({
      query: (body) => ({ url: 'agenda-items/', method: 'POST', body }),
      invalidatesTags: ['Schedule'],
    }),
    deleteAgendaItem: build.mutation<void, string>({
      query: (id) => ({ url: `agenda-items/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Schedule'],
    }),
    /** The organisation's booking settings: a new schedule starts with its default capacity. */
    bookingDefaults: build.query<TBookingConfig, void>({ query: () => 'bookings/config/' }),
    upcomingSlots: build.query<TSlot[], { experience: string; from: string; to: string }>({
      query: (params) => ({ url: 'bookings/check-availability/', params }),
      providesTags: ['Schedule'],
    }),
    experiences: build.query<TPaginated<TExperienceSummary>, Record<string, string | number>>({
      query: (params) => ({ url: 'experiences/', params }),
      providesTags: ['Experience'],
    }),
    experience: build.query<TExperience, string>({
      query: (id) => `experiences/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'Experience', id }],
    }),
    createExperience: build.mutation<TExperience, Partial<TExperienceFields> & Pick<TExperienceFields, 'title' | 'type'>>({
      query: (body) => ({ url: 'experiences/', method: 'POST', body }),
      invalidatesTags: ['Experience'],
    }),
    updateExperience: build.mutation<TExperience, { id: string } & TExperiencePatch>({
      query: ({ id, ...body }) => ({ url: `experiences/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['Experience'],
    }),
    deleteExperience: build.mutation<void, string>({
      query: (id) => ({ url: `experiences/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Experience'],
    }),
    duplicateExperience: build.mutation<TExperience, string>({
      query: (id) => ({ url: `experiences/${id}/duplicate/`, method: 'POST', body: {} }),
      invalidatesTags: ['Experience'],
    }),
    reorderImages: build.mutation<TExperience, { id: string; images: string[] }>({
      query: ({ id, images }) => ({ url: `experiences/${id}/reorder-images/`, method: 'PATCH', body: { images } }),
      invalidatesTags: ['Experience'],
    }),
    createImage: build.mutation<TImage, { original_name: string; experience: string }>({
      query: (body) => ({ url: 'images/', method: 'POST', body }),
    }),
    deleteImage: build.mutation<void, string>({
      query: (id) => ({ url: `images/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Experience'],
    }),
    addVideo: build.mutation<TVideo, { url: string; experience: string }>({
      query: (body) => ({ url: 'videos/', method: 'POST', body }),
      invalidatesTags: ['Experience'],
    }),
    deleteVideo: build.mutation<void, string>({
      query: (id) => ({ url: `videos/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['Experience'],
    }),
    pricingCategories: build.query<TPaginated<TPricingCategory>, void>({
      query: () => ({ url: 'pricing-categories/', params: { page_size: 50 } }),
      providesTags: ['PricingCategory'],
    }),
    createPricingCategory: build.mutation<TPricingCategory, Omit<TPricingCategory, 'id' | 'created_at' | 'translations'> & Partial<Pick<TPricingCategory, 'translations'>>>({
      query: (body) => ({ url: 'pricing-categories/', method: 'POST', body }),
      invalidatesTags: ['PricingCategory'],
    }),
    updatePricingCategory: build.mutation<TPricingCategory, Partial<TPricingCategory> & { id: string }>({
      query: ({ id, created_at: _c, ...body }) => ({ url: `pricing-categories/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['PricingCategory'],
    }),
    deletePricingCategory: build.mutation<void, string>({
      query: (id) => ({ url: `pricing-categories/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['PricingCategory'],
    }),
    /** Every rate of these offers (ids joined by commas), however many pages of 50 they fill. */
    allPricingRates: build.query<TPricingRate[], string>({
      async queryFn(experiences, _api, _extra, baseQuery) {
        const all: TPricingRate[] = [];
        for (let page = 1; ; page++) {
          const res = await baseQuery({ url: 'pricing-rates/', params: { experiences, page_size: 50, page } });
          if (res.error) return { error: res.error };
          const data = res.data as TPaginated<TPricingRate>;
          all.push(...data.results);
          if (page >= data.total_pages) return { data: all };
        }
      },
      providesTags: ['PricingRate'],
    }),
    createRate: build.mutation<TPricingRate, RateInput>({
      query: (body) => ({ url: 'pricing-rates/', method: 'POST', body }),
      invalidatesTags: ['PricingRate', 'Experience'],
    }),
    updateRate: build.mutation<TPricingRate, { id: string } & Partial<RateInput>>({
      query: ({ id, experience: _e, pricing_category: _p, ...body }) => ({ url: `pricing-rates/${id}/`, method: 'PATCH', body }),
      invalidatesTags: ['PricingRate', 'Experience'],
    }),
    deleteRate: build.mutation<void, string>({
      query: (id) => ({ url: `pricing-rates/${id}/`, method: 'DELETE' }),
      invalidatesTags: ['PricingRate', 'Experience'],
    }),
  }),
});

export const {
  useMeetingPointsQuery,
  useScheduleRulesQuery,
  useCreateScheduleRuleMutation,
  useDeleteScheduleRuleMutation,
  useCloseDateMutation,
  useUpcomingSlotsQuery,
  useBookingDefaultsQuery,
  useAgendaQuery,
  useAddAgendaItemMutation,
  useDeleteAgendaItemMutation,
  useExperiencesQuery,
  useExperienceQuery,
  useCreateExperienceMutation,
  useUpdateExperienceMutation,
  useDeleteExperienceMutation,
  useDuplicateExperienceMutation,
  useReorderImagesMutation,
  useCreateImageMutation,
  useDeleteImageMutation,
  useAddVideoMutation,
  useDeleteVideoMutation,
  usePricingCategoriesQuery,
  useCreatePricingCategoryMutation,
  useUpdatePricingCategoryMutation,
  useDeletePricingCategoryMutation,
  useAllPricingRatesQuery,
  useCreateRateMutation,
  useUpdateRateMutation,
  useDeleteRateMutation,
} = experiencesApi;

// Where an offer is sold, and adding it to a store from the editor: the stores feature caches the
// same stores and their offers under these tags, so a change here is seen there.
const channelsApi = api.enhanceEndpoints({ addTagTypes: ['OfferChannels', 'Store', 'StoreOffer', 'StoreEligible'] }).injectEndpoints({
  endpoints: (build) => ({
    offerChannels: build.query<TOfferChannels, string>({ query: (id) => `experiences/${id}/channels/`, providesTags: (_r, _e, id) => [{ type: 'OfferChannels', id }] }),
    addOfferToStore: build.mutation<void, { store: string; experience: string }>({
      query: ({ store, experience }) => ({ url: `stores/${store}/add-experience/`, method: 'POST', body: { experiences: [experience] } }),
      invalidatesTags: (_r, _e, { store, experience }) => [
        { type: 'OfferChannels', id: experience },
        { type: 'StoreOffer', id: store },
        { type: 'StoreEligible', id: store },
        { type: 'Store', id: store },
        { type: 'Store', id: 'LIST' },
      ],
    }),
  }),
});

export const { useOfferChannelsQuery, useAddOfferToStoreMutation } = channelsApi;

// What a booking of the offer takes from resource pools (issue 34): its usage, and the inventory
// items it picks pools (Equipment) and extras (Extras) from.
const poolsApi = api.enhanceEndpoints({ addTagTypes: ['PoolUsage', 'Inventory'] }).injectEndpoints({
  endpoints: (build) => ({
    poolUsage: build.query<TPoolUsage, string>({ query: (id) => `experiences/${id}/pools/`, providesTags: (_r, _e, id) => [{ type: 'PoolUsage', id }] }),
    savePoolUsage: build.mutation<TPoolUsage, { experience: string } & TPoolUsageInput>({
      query: ({ experience, ...body }) => ({ url: `experiences/${experience}/pools/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { experience }) => [{ type: 'PoolUsage', id: experience }, 'Slot'],
    }),
    inventoryOfType: build.query<TPaginated<TInventoryItem>, 'Equipment' | 'Extras'>({
      query: (type) => ({ url: 'inventory-items/', params: { type, page_size: 50 } }),
      providesTags: ['Inventory'],
    }),
  }),
});

export const { usePoolUsageQuery, useSavePoolUsageMutation, useInventoryOfTypeQuery } = poolsApi;
