import { lazy } from 'react';

/**
 * The customer's own pages (cart and checkout, confirmation, booking, payment) load when first
 * shown: the server never draws them (they need what only the browser holds), and the store and
 * offer pages, which people and search engines land on, stay small. The offer page asks for the
 * checkout's once a time is chosen, so "Hold seats" does not wait for it.
 */
export const loadCheckout = () => import('./CheckoutPage');
export const CheckoutPage = lazy(() => loadCheckout().then((m) => ({ default: m.CheckoutPage })));
export const ConfirmationPage = lazy(() => import('./ConfirmationPage').then((m) => ({ default: m.ConfirmationPage })));
export const BookingPage = lazy(() => import('./BookingPage').then((m) => ({ default: m.BookingPage })));
export const VoucherPage = lazy(() => import('./VoucherPage').then((m) => ({ default: m.VoucherPage })));
export const PaymentPage = lazy(() => import('./PaymentPage').then((m) => ({ default: m.PaymentPage })));
