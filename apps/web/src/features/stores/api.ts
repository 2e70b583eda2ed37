import type { FetchBaseQueryError } from '@reduxjs/toolkit/query';
import type { TImage, TPaginated, TStore, TStoreAnalytics, TStoreExperience, TStoreInput } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';
import { silenceErrorToasts } from '../../shared/api/session-listener';

const tagged = api.enhanceEndpoints({ addTagTypes: ['Store', 'StoreOffer', 'StoreEligible', 'StoreAnalytics'] });

/** The most offers a store's order is sent with (ZStoreExperiencesInput), read 50 a page. */
const OFFERS_PAGE = 50;
const OFFERS_MAX = 200;

// Endpoint names are global to the one api: everything here names the store.
export const storesApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    stores: build.query<TPaginated<TStore>, Record<string, string | number>>({
      query: (params) => ({ url: 'stores/', params }),
      providesTags: [{ type: 'Store', id: 'LIST' }],
    }),
    store: build.query<TStore, string>({
      query: (id) => `stores/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'Store', id }],
    }),
    createStore: build.mutation<TStore, TStoreInput>({
      query: (body) => ({ url: 'stores/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Store', id: 'LIST' }],
    }),
    updateStore: build.mutation<TStore, TStoreInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `stores/${id}/`, method: 'PUT', body }),
      // The answer is the store as saved: it becomes the cached one, without a second read.
      async onQueryStarted({ id }, { dispatch, queryFulfilled }) {
        try {
          const { data } = await queryFulfilled;
          dispatch(storesApi.util.upsertQueryData('store', id, data));
        } catch {
          // Shown by the form and the session listener.
        }
      },
      invalidatesTags: (r) => (r ? [{ type: 'Store', id: 'LIST' }, { type: 'StoreAnalytics', id: r.id }] : []),
    }),
    deleteStore: build.mutation<void, string>({
      query: (id) => ({ url: `stores/${id}/`, method: 'DELETE' }),
      // Not the store's own tag: its editor is left, a refetch would only answer 404.
      invalidatesTags: (_r, e) => (e ? [] : [{ type: 'Store', id: 'LIST' }]),
    }),
    /** Every offer of the store, in its order (read page by page): reordering sends them all. */
    storeOffers: build.query<TStoreExperience[], string>({
      async queryFn(id, _api, _extra, baseQuery) {
        const all: TStoreExperience[] = [];
        for (let page = 1; all.length < OFFERS_MAX; page++) {
          const res = await baseQuery({ url: `stores/${id}/experiences/`, params: { page, page_size: OFFERS_PAGE } });
          if (res.error) return { error: res.error as FetchBaseQueryError };
          const data = res.data as TPaginated<TStoreExperience>;
          all.push(...data.results);
          if (!data.next || page >= data.total_pages) break;
        }
        return { data: all };
      },
      providesTags: (_r, _e, id) => [{ type: 'StoreOffer', id }],
    }),
    storeEligibleOffers: build.query<TPaginated<TStoreExperience>, { id: string; params: Record<string, string | number> }>({
      query: ({ id, params }) => ({ url: `stores/${id}/eligible-experiences/`, params }),
      providesTags: (_r, _e, { id }) => [{ type: 'StoreEligible', id }],
    }),
    addStoreOffers: build.mutation<void, { id: string; experiences: string[] }>({
      query: ({ id, experiences }) => ({ url: `stores/${id}/add-experience/`, method: 'POST', body: { experiences } }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'StoreOffer', id },
        { type: 'StoreEligible', id },
        { type: 'Store', id },
        { type: 'Store', id: 'LIST' },
      ],
    }),
    removeStoreOffer: build.mutation<void, { id: string; experience: string }>({
      query: ({ id, experience }) => ({ url: `stores/${id}/remove-experience/`, method: 'POST', body: { experience } }),
      invalidatesTags: (_r, _e, { id }) => [
        { type: 'StoreOffer', id },
        { type: 'StoreEligible', id },
        { type: 'Store', id },
        { type: 'Store', id: 'LIST' },
      ],
    }),
    /** The new order shows at once; a refusal puts the old one back (and is toasted). */
    reorderStoreOffers: build.mutation<void, { id: string; experiences: string[] }>({
      query: ({ id, experiences }) => ({ url: `stores/${id}/reorder-experiences/`, method: 'POST', body: { experiences } }),
      async onQueryStarted({ id, experiences }, { dispatch, queryFulfilled }) {
        const patch = dispatch(
          storesApi.util.updateQueryData('storeOffers', id, (offers) => {
            const byId = new Map(offers.map((o) => [o.experience, o]));
            return experiences.map((e, position) => ({ ...byId.get(e)!, position }));
          }),
        );
        try {
          await queryFulfilled;
        } catch {
          patch.undo();
          dispatch(storesApi.util.invalidateTags([{ type: 'StoreOffer', id }]));
        }
      },
    }),
    storeAnalytics: build.query<TStoreAnalytics, { id: string; from: string; to: string }>({
      query: ({ id, from, to }) => ({ url: `stores/${id}/analytics/`, params: { from, to } }),
      providesTags: (_r, _e, { id }) => [{ type: 'StoreAnalytics', id }],
    }),
    /** POST /api/images/ without an offer: a loose image, the logo's; its bytes go to upload_url. */
    createStoreLogo: build.mutation<TImage, { original_name: string }>({
      query: (body) => ({ url: 'images/', method: 'POST', body }),
    }),
    /** A logo whose upload failed is not kept. */
    deleteStoreLogo: build.mutation<void, string>({
      query: (id) => ({ url: `images/${id}/`, method: 'DELETE' }),
    }),
  }),
});

// A store that fails to load is shown by the editor's error panel, not toasted as well.
silenceErrorToasts('store');

export const {
  useStoresQuery,
  useStoreQuery,
  useCreateStoreMutation,
  useUpdateStoreMutation,
  useDeleteStoreMutation,
  useStoreOffersQuery,
  useStoreEligibleOffersQuery,
  useAddStoreOffersMutation,
  useRemoveStoreOfferMutation,
  useReorderStoreOffersMutation,
  useStoreAnalyticsQuery,
  useCreateStoreLogoMutation,
} = storesApi;
