//! Paying an unpaid card order: the provider's card form (OPN) or a made-up token (sandbox)
//! gives a card token, the server charges it, and the browser follows the bank's address.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { InquiryResponse } from '@/api/types';
import { useDialog } from '@/components/Dialog';
import { Spinner } from '@/components/Spinner';
import { useLanguage } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { CONTACT } from '@/lib/constants';
import { loadOmiseCard } from './omise';
import { chargeCard, opnPublicKeyQuery, orderQueryKeys } from './api';
import { sandboxToken, toSatang } from './orderData';
import { AmountLine, SandboxBanner } from './parts';
import { useOrderFailurePopup } from './useOrder';
import { formatBangkokDateTime } from '@/lib/dates';
import { useT } from './messages';

export function CardPayment({ order, uuid }: { order: InquiryResponse; uuid: string }) {
  const t = useT();
  const [lang] = useLanguage();
  const errorText = useErrorText();
  const failurePopup = useOrderFailurePopup();
  const { alert } = useDialog();
  const queryClient = useQueryClient();
  // Paying: from the moment a card token exists until the charge fails.
  const [paying, setPaying] = useState(false);
  const [opening, setOpening] = useState(false);

  const charge = useMutation({
    mutationFn: (token: string) => chargeCard(uuid, order, token),
    onSuccess: (answer) => {
      const next = answer.data.authorize_uri;
      if (next) {
        // Stays "connecting" while the browser leaves for the bank's page.
        window.location.assign(next);
        return;
      }
      setPaying(false);
      void alert({ title: t('order.failure.title'), text: t('order.cc.noAuthorize', { line: CONTACT.line }), tone: 'error' });
    },
    onError: (e) => {
      setPaying(false);
      void failurePopup(errorText(e));
      // The order may have changed meanwhile (paid, expired): show its current state.
      void queryClient.invalidateQueries({ queryKey: orderQueryKeys.inquiry(uuid) });
    },
  });

  const payWith = (token: string) => {
    setPaying(true);
    charge.mutate(token);
  };

  const openCardForm = async () => {
    setOpening(true);
    try {
      const conf = await queryClient.query(opnPublicKeyQuery);
      const publicKey = conf.body.value;
      if (!publicKey) throw new Error('no OPN public key');
      const card = await loadOmiseCard();
      card.configure({ publicKey });
      card.open({
        amount: toSatang(order.amount),
        currency: 'THB',
        frameLabel: 'Raceshot',
        frameDescription: uuid,
        submitLabel: 'PAY NOW',
        buttonLabel: 'PAY NOW',
        onCreateTokenSuccess: payWith,
        onFormClosed: () => undefined,
      });
    } catch (e) {
      void failurePopup(errorText(e));
    } finally {
      setOpening(false);
    }
  };

  const start = () => {
    // The sandbox gateway has no card form: any sandbox token stands for a card.
    if (order.payment_gateway === 'SANDBOX') payWith(sandboxToken());
    else void openCardForm();
  };

  return (
    <section className="card stack center" aria-labelledby="cc-title">
      <h2 id="cc-title">{t('order.cc.title')}</h2>
      {order.sandbox && <SandboxBanner />}
      <AmountLine order={order} />
      {order.expire_date !== '' && <p className="danger">{t('order.expireAt', { date: formatBangkokDateTime(order.expire_date, lang) })}</p>}
      {paying ? (
        <div className="alert alert-info" data-testid="card-connecting">
          <Spinner label={t('order.cc.connecting')} />
        </div>
      ) : (
        <p>
          <button
            type="button"
            className="btn btn-primary"
            onClick={start}
            disabled={opening}
            data-testid="pay-by-card"
          >
            {opening && <Spinner inline />}
            {t('order.cc.pay')}
          </button>
        </p>
      )}
      <p className="muted small">{t('order.cc.help')}</p>
    </section>
  );
}
