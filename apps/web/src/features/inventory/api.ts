import type { TInventoryCategory, TInventoryItem, TInventoryTag, TPaginated } from '@tourdesk/contracts';
import { api } from '../../shared/api/api';

export type ItemInput = Omit<TInventoryItem, 'id' | 'created_at' | 'category' | 'currency' | 'translations'> & { category: string | null } & Partial<Pick<TInventoryItem, 'translations'>>;

export const inventoryApi = api.injectEndpoints({
  endpoints: (build) => ({
    items: build.query<TPaginated<TInventoryItem>, Record<string, string | number>>({
      query: (params) => ({ url: 'inventory-items/', params }),
      providesTags: ['Inventory'],
    }),
    saveItem: build.mutation<TInventoryItem, ItemInput & { id?: string }>({
      query: ({ id, ...body }) => (id ? { url: `inventory-items/${id}/`, method: 'PUT', body } : { url: 'inventory-items/', method: 'POST', body }),
      invalidatesTags: ['Inventory'],
    }),
    deleteItem: build.mutation<void, string>({ query: (id) => ({ url: `inventory-items/${id}/`, method: 'DELETE' }), invalidatesTags: ['Inventory'] }),
    categories: build.query<TPaginated<TInventoryCategory>, void>({
      query: () => ({ url: 'inventory-item-categories/', params: { page_size: 50 } }),
      providesTags: ['Inventory'],
    }),
    saveCategory: build.mutation<TInventoryCategory, { id?: string; name: string }>({
      query: ({ id, ...body }) => (id ? { url: `inventory-item-categories/${id}/`, method: 'PATCH', body } : { url: 'inventory-item-categories/', method: 'POST', body }),
      invalidatesTags: ['Inventory'],
    }),
    deleteCategory: build.mutation<void, string>({ query: (id) => ({ url: `inventory-item-categories/${id}/`, method: 'DELETE' }), invalidatesTags: ['Inventory'] }),
    tags: build.query<TInventoryTag[], void>({ query: () => 'inventory-item-tags/', providesTags: ['Inventory'] }),
  }),
});

export const {
  useItemsQuery,
  useSaveItemMutation,
  useDeleteItemMutation,
  useCategoriesQuery,
  useSaveCategoryMutation,
  useDeleteCategoryMutation,
  useTagsQuery,
} = inventoryApi;
