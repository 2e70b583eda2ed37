import type { TBookingOptions } from '@tourdesk/contracts';
import { useMemo } from 'react';
import { useAppSelector } from '../../shared/hooks/store';
import { hasFeatures, hasPermissions } from '../../shared/lib/permissions';
import { useBookingOptionsQuery } from './api';

export type BookingExtra = TBookingOptions['extras'][number];
export type BookingQuestion = TBookingOptions['questions'][number];

/**
 * The names behind a booking's extras and answers: the extras offered with the offers and the
 * booking questions, read once (never per booking) from /api/bookings/options/, which anyone who
 * sells may read (the inventory itself needs Manage inventory).
 */
export function useBookingCatalog() {
  const user = useAppSelector((s) => s.auth.user);
  const appInfo = useAppSelector((s) => s.auth.appInfo);
  const canReadCatalog = hasPermissions(user, appInfo, ['View experiences']) && hasFeatures(user, ['experiences']);
  const { data: options, isLoading } = useBookingOptionsQuery();
  const itemList = options?.extras;
  const questionList = options?.questions;
  const items = useMemo(() => new Map<string, BookingExtra>((itemList ?? []).map((i) => [i.id, i])), [itemList]);
  const questions = useMemo(() => new Map<string, BookingQuestion>((questionList ?? []).map((q) => [q.id, q])), [questionList]);
  /** The position of each question in the organisation's list, to show answers in a stable order. */
  const questionOrder = useMemo(() => new Map((questionList ?? []).map((q, i) => [q.id, i])), [questionList]);
  return { canReadCatalog, items, questions, questionOrder, isLoading };
}

export type BookingCatalog = ReturnType<typeof useBookingCatalog>;

/** A booking's extras as "name × quantity", in the order of the item names. */
export function extraLines(extras: Record<string, number>, catalog: BookingCatalog) {
  return Object.entries(extras)
    .filter(([, n]) => n > 0)
    .map(([id, quantity]) => ({ id, name: catalog.items.get(id)?.name ?? 'Extra', quantity }))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/** A booking's answers as question and answer, in the organisation's question order. */
export function answerLines(answers: Record<string, string>, catalog: BookingCatalog) {
  const last = Number.MAX_SAFE_INTEGER;
  return Object.entries(answers)
    .filter(([, answer]) => answer.trim() !== '')
    .sort(([a], [b]) => (catalog.questionOrder.get(a) ?? last) - (catalog.questionOrder.get(b) ?? last))
    .map(([id, answer]) => ({ id, question: catalog.questions.get(id), answer }));
}
