import type { TCustomer, TOrderSummary, TPaginated, ZCustomerCreate } from '@tourdesk/contracts';
import type { z } from 'zod';
import { api } from '../../shared/api/api';

/** What the customer form sends: the contract's customer fields. */
export type CustomerInput = z.output<typeof ZCustomerCreate>;

const tagged = api.enhanceEndpoints({ addTagTypes: ['Customer', 'Order'] });

// Endpoint names are global to the one api: everything here is prefixed with "customer".
export const customersApi = tagged.injectEndpoints({
  endpoints: (build) => ({
    customers: build.query<TPaginated<TCustomer>, Record<string, string | number>>({
      query: (params) => ({ url: 'customers/', params }),
      providesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
    customer: build.query<TCustomer, string>({
      query: (id) => `customers/${id}/`,
      providesTags: (_r, _e, id) => [{ type: 'Customer', id }],
    }),
    createCustomer: build.mutation<TCustomer, CustomerInput>({
      query: (body) => ({ url: 'customers/', method: 'POST', body }),
      invalidatesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
    updateCustomer: build.mutation<TCustomer, CustomerInput & { id: string }>({
      query: ({ id, ...body }) => ({ url: `customers/${id}/`, method: 'PUT', body }),
      invalidatesTags: (_r, _e, { id }) => [{ type: 'Customer', id }, { type: 'Customer', id: 'LIST' }, { type: 'Order', id: 'LIST' }],
    }),
    deleteCustomer: build.mutation<void, string>({
      query: (id) => ({ url: `customers/${id}/`, method: 'DELETE' }),
      invalidatesTags: [{ type: 'Customer', id: 'LIST' }],
    }),
    customerOrders: build.query<TPaginated<TOrderSummary>, { customer: string; page: number; page_size: number }>({
      query: (params) => ({ url: 'orders/', params: { ...params, ordering: '-created_at' } }),
      providesTags: [{ type: 'Order', id: 'LIST' }],
    }),
  }),
});

export const {
  useCustomersQuery,
  useCustomerQuery,
  useCreateCustomerMutation,
  useUpdateCustomerMutation,
  useDeleteCustomerMutation,
  useCustomerOrdersQuery,
} = customersApi;
