import { Button, Group, Text } from '@mantine/core';
import { IconFileText, IconMail, IconPrinter } from '@tabler/icons-react';
import type { TTicketsSent } from '@tourdesk/contracts';
import { api } from '../api/api';
import { downloadFile, fileUrl, openInNewTab, type DownloadArgs } from '../api/download';
import { notifySuccess } from '../lib/toast';
import { ConfirmButton } from './ConfirmButton';
import { useCommonT } from '../i18n/common';

/**
 * A customer's tickets and order confirmation for staff, on an order's and a booking's page: the
 * tickets' PDF (the same one the confirmation e-mail carries) opened to print, the confirmation
 * PDF, and both e-mailed to the customer again.
 */
const ticketsApi = api.injectEndpoints({
  endpoints: (build) => ({
    ticketFileUrl: build.mutation<string, DownloadArgs>({ queryFn: fileUrl }),
    ticketDownload: build.mutation<string, DownloadArgs>({ queryFn: downloadFile }),
    sendTickets: build.mutation<TTicketsSent, string>({ query: (order) => ({ url: `orders/${order}/send-tickets/`, method: 'POST', body: {} }) }),
  }),
});

export interface TicketActionsProps {
  order: { id: string; reference: string; customer: { email: string }; store?: { id: string } | null };
  /** On a booking's page: print this booking's ticket only. */
  booking?: { id: string; ticket_code: string };
  /** Whether the order has a booking that is not cancelled (else there are no tickets). */
  hasTickets: boolean;
  onSent?: () => void;
}

export function TicketActions({ order, booking, hasTickets, onSent }: TicketActionsProps) {
  const t = useCommonT();
  const [openFile, opening] = ticketsApi.useTicketFileUrlMutation();
  const [download, downloading] = ticketsApi.useTicketDownloadMutation();
  const [send] = ticketsApi.useSendTicketsMutation();
  const ticketUrl = booking ? `bookings/${booking.id}/tickets.pdf` : `orders/${order.id}/tickets.pdf`;
  const email = order.customer.email.trim();
  return (
    <Group gap="xs" className="no-print">
      <Button
        variant="default"
        leftSection={<IconPrinter size={16} />}
        disabled={!hasTickets}
        loading={opening.isLoading}
        onClick={() =>
          void openInNewTab(async () => {
            const res = await openFile({ url: ticketUrl, fallbackName: 'tickets.pdf' });
            return 'error' in res ? null : res.data;
          })
        }
      >
        {booking ? t('tickets.printOne') : t('tickets.printAll')}
      </Button>
      <Button variant="default" leftSection={<IconFileText size={16} />} loading={downloading.isLoading} onClick={() => void download({ url: `orders/${order.id}/confirmation.pdf`, fallbackName: `confirmation-${order.reference}.pdf` })}>
        {t('tickets.pdf')}
      </Button>
      <ConfirmButton
        variant="default"
        leftSection={<IconMail size={16} />}
        disabled={!hasTickets || !email}
        title={t('tickets.emailAgain')}
        message={
          <Text size="sm">
            {t('tickets.message', { reference: order.reference, email })}
            {order.store ? ` ${t('tickets.newLink')}` : ''}
          </Text>
        }
        confirmLabel={t('tickets.send')}
        onConfirm={async () => {
          const res = await send(order.id);
          if ('error' in res) return false;
          notifySuccess(res.data.detail);
          onSent?.();
          return true;
        }}
      >
        {t('tickets.email')}
      </ConfirmButton>
    </Group>
  );
}
