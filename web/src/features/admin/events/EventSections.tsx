//! The event form's groups of single fields: the basics (the key fixed once the event
//! exists), the dates, the deals and sale options, the face search, the bib rule, and the
//! cover with its preview.

import { useState } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { EventForm, FlagField, TextField } from './eventForm';
import { CheckInput, TextInput } from './EventInputs';
import { useAdminEventsT } from './i18n';

type Options = Omit<Parameters<typeof TextInput>[0], 'name' | 'label'>;

function Text({ field, ...options }: Options & { field: TextField }) {
  const t = useAdminEventsT();
  return <TextInput name={field} label={t(`adminEvents.field.${field}`)} {...options} />;
}

function Check({ field, hint }: { field: FlagField; hint?: string }) {
  const t = useAdminEventsT();
  return <CheckInput name={field} label={t(`adminEvents.field.${field}`)} hint={hint} />;
}

export function FieldSections({ keyFixed }: { keyFixed: boolean }) {
  const t = useAdminEventsT();
  const baht = t('adminEvents.hint.baht');
  return (
    <>
      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.basics')}</legend>
        <Text
          field="event_key"
          required
          readOnly={keyFixed}
          hint={t(keyFixed ? 'adminEvents.hint.keyFixed' : 'adminEvents.hint.key')}
          autoCapitalize="none"
        />
        <Text field="title" required />
        <Text field="event_date_text" hint={t('adminEvents.hint.eventDateText')} />
        <Text field="province" />
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.dates')}</legend>
        <Text field="eventdate" type="date" required />
        <Text field="on_sale_start" required hint={t('adminEvents.hint.saleStart')} />
        <Text field="on_sale_end" required hint={t('adminEvents.hint.saleEnd')} />
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.deals')}</legend>
        <Check field="deal" hint={t('adminEvents.hint.deal')} />
        <Text field="dealPrice" inputMode="decimal" hint={baht} />
        <Check field="wholesale" hint={t('adminEvents.hint.wholesale')} />
        <Check field="wholesaleDeal" hint={t('adminEvents.hint.wholesaleDeal')} />
        <Text field="wholesaleDealPrice" inputMode="decimal" hint={baht} />
        <Text field="dealLabel" />
        <Check field="manualSearch" />
        <Check field="freeDownload" hint={t('adminEvents.hint.isFreeDownload')} />
        <Check field="freeForContact" hint={t('adminEvents.hint.isFreeKeepContract')} />
        <Check field="pin" hint={t('adminEvents.hint.pin')} />
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.face')}</legend>
        <Text field="face_threshold" inputMode="decimal" hint={t('adminEvents.hint.faceThreshold')} />
        <Text field="max_face_search" inputMode="numeric" hint={t('adminEvents.hint.maxFaceSearch')} />
      </fieldset>

      <fieldset className="card admin-event-fieldset" data-testid="group-bib">
        <legend>{t('adminEvents.group.bib')}</legend>
        <p className="muted admin-event-hint">{t('adminEvents.hint.bib')}</p>
        <Text field="bib_min_digits" inputMode="numeric" hint={t('adminEvents.hint.bibMinDigits')} />
        <Text field="bib_max_digits" inputMode="numeric" hint={t('adminEvents.hint.bibMaxDigits')} />
        <Text field="bib_prefix" hint={t('adminEvents.hint.bibPrefix')} autoCapitalize="characters" />
      </fieldset>
    </>
  );
}

export function CoverSection() {
  const t = useAdminEventsT();
  const { control } = useFormContext<EventForm>();
  const cover = useWatch({ control, name: 'coverurl' }).trim();
  return (
    <fieldset className="card admin-event-fieldset">
      <legend>{t('adminEvents.group.cover')}</legend>
      <Text field="coverurl" type="url" hint={t('adminEvents.hint.cover')} />
      {/^(https?:\/\/|\/)/.test(cover) && <CoverPreview url={cover} />}
    </fieldset>
  );
}

function CoverPreview({ url }: { url: string }) {
  const t = useAdminEventsT();
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === url) return <p className="muted">{t('adminEvents.cover.failed')}</p>;
  return (
    <img
      key={url}
      src={url}
      alt={t('adminEvents.cover.preview')}
      className="admin-event-cover"
      data-testid="cover-preview"
      onError={() => setFailed(url)}
    />
  );
}
