//! The cart analytics call (`POST /v1/logs/`), sent after each add or remove.
//! Fire and forget: a lost log must never bother the visitor.

import { api } from '@/api/client';
import type { CartItem, CartKind } from './cart';

export function logCart(kind: CartKind, cart: CartItem[], imageId: number | null, eventKey: string) {
  const body = {
    service: kind === 'standard' ? 'cart' : 'cart-wholesale',
    cart_count: cart.length,
    image_id: imageId,
    list: cart.map((i) => i.id).join(','),
    event_key: eventKey,
  };
  api.POST('/v1/logs/', { body }).catch(() => undefined);
}
