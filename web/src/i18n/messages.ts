//! Every text of the app: the shared texts plus each feature's own dictionary.

import { cartMessages } from '@/features/cart/messages';
import { contentMessages } from '@/features/content/messages';
import { eventsMessages } from '@/features/events/messages';
import { homeMessages } from '@/features/home/messages';
import { ordersMessages } from '@/features/orders/messages';
import { qrMessages } from '@/features/qr/messages';
import { common } from './common';

const parts = [common, homeMessages, eventsMessages, cartMessages, ordersMessages, contentMessages, qrMessages] as const;

type Th = typeof common.th &
  typeof homeMessages.th &
  typeof eventsMessages.th &
  typeof cartMessages.th &
  typeof ordersMessages.th &
  typeof contentMessages.th &
  typeof qrMessages.th;

export type MessageKey = keyof Th & string;

export const messages = {
  th: Object.assign({}, ...parts.map((p) => p.th)) as Record<MessageKey, string>,
  en: Object.assign({}, ...parts.map((p) => p.en)) as Record<MessageKey, string>,
};
