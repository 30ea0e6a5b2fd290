//! What the face search asks before it starts: a selfie of an accepted type (JPEG, PNG) and
//! size (at most 5 MB), told in a dialog when it is not; and, with the all-photos deal, the
//! visitor's leave to empty the cart a new search will fill again.

import { useDialog } from '@/components/Dialog';
import { clearCart, readCart, type CartKind } from '@/lib/cart';
import { MAX_SELFIE_BYTES, SELFIE_TYPES } from '@/lib/constants';
import { useT } from './messages';

export function useSearchGuards(kind: CartKind, dealOn: boolean) {
  const t = useT();
  const dialog = useDialog();

  /** Whether a chosen selfie may be used; a refused one is told in a dialog. */
  const selfieOk = async (file: File): Promise<boolean> => {
    if (!(SELFIE_TYPES as readonly string[]).includes(file.type)) {
      await dialog.alert({ title: t('event.upload.wrongType.title'), text: t('event.upload.wrongType'), tone: 'error' });
      return false;
    }
    if (file.size > MAX_SELFIE_BYTES) {
      await dialog.alert({ title: t('event.upload.tooLarge.title'), text: t('event.upload.tooLarge'), tone: 'error' });
      return false;
    }
    return true;
  };

  /** With the all-photos deal a new search empties the cart, once the visitor agrees (only
   * then is the search put off until an answer): whether there is a cart to ask about. */
  const cartStays = () => dealOn && readCart(kind).length > 0;

  /** Asks to empty the cart, and empties it when the visitor agrees. */
  const confirmCartGoes = async (): Promise<boolean> => {
    const ok = await dialog.confirm({
      title: t('event.upload.clearCart.title'),
      text: t('event.upload.clearCart'),
      okLabel: t('event.upload.clearCart.ok'),
      tone: 'warning',
    });
    if (ok) clearCart(kind);
    return ok;
  };

  return { selfieOk, cartStays, confirmCartGoes };
}
