//! An event's finisher certificates in the console, below its results: offered or not and
//! the price, then each template (the picture's and the A4 page's) — the event's own or
//! the shop's, a new SVG uploaded (the server checks it whole and names what is wrong),
//! the one in use downloaded to start from, a sample opened, or back to the shop's.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type SyntheticEvent } from 'react';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useDictionary, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { readText } from '@/lib/files';
import { RetryAlert } from '../shell/RetryAlert';
import { isSignedOut } from '../shell/session';
import {
  CERTIFICATE_FORMATS,
  certificatesKey,
  fetchCertificates,
  resetTemplate,
  sampleUrl,
  saveCertificates,
  saveTemplate,
  type CertificateFormat,
  type CertificatesBody,
} from './certificatesApi';
import { certificatesMessages } from './certificatesMessages';

export function CertificatesSection({ eventKey }: { eventKey: string }) {
  const t = useDictionary(certificatesMessages);
  const common = useT();
  const settings = useQuery({ queryKey: certificatesKey(eventKey), queryFn: () => fetchCertificates(eventKey) });
  return (
    <section className="card stack" data-testid="certificates">
      <h2>{t('adminCertificates.title')}</h2>
      <p className="muted">{t('adminCertificates.intro')}</p>
      {settings.isPending && <Spinner label={common('loading')} />}
      {settings.isError && <RetryAlert query={settings} />}
      {settings.data && (
        <>
          <OfferForm eventKey={eventKey} settings={settings.data} />
          {CERTIFICATE_FORMATS.map((format) => (
            <TemplateForm key={format} eventKey={eventKey} format={format} settings={settings.data} />
          ))}
          <p className="muted">
            {t('adminCertificates.fields', { fields: settings.data.fields.map((f) => `{{${f}}}`).join(' ') })}
          </p>
        </>
      )}
    </section>
  );
}

/** Keeps the page's copy of the settings to what the server answered. */
function useSaved(eventKey: string) {
  const client = useQueryClient();
  return (answer: CertificatesBody) => client.setQueryData(certificatesKey(eventKey), answer);
}

function OfferForm({ eventKey, settings }: { eventKey: string; settings: CertificatesBody }) {
  const t = useDictionary(certificatesMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const saved = useSaved(eventKey);
  const [offered, setOffered] = useState(settings.offered);
  const [price, setPrice] = useState(String(settings.price));
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    setOffered(settings.offered);
    setPrice(String(settings.price));
  }, [settings.offered, settings.price]);
  const save = useMutation({
    mutationFn: () => saveCertificates(eventKey, offered, Number(price)),
    onSuccess: (answer) => {
      saved(answer);
      toast.success(t('adminCertificates.saved'));
    },
    onError: (e) => {
      if (!isSignedOut(e)) setProblem(errorText(e));
    },
  });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setProblem(null);
    save.mutate();
  };
  return (
    <form className="stack" noValidate onSubmit={submit} data-testid="certificates-offer">
      <label className="admin-event-check" htmlFor="certificates-offered">
        <input
          id="certificates-offered"
          type="checkbox"
          checked={offered}
          onChange={(e) => setOffered(e.currentTarget.checked)}
          data-testid="certificates-offered"
        />
        <span>{t('adminCertificates.offered')}</span>
      </label>
      <InputField
        id="certificates-price"
        type="number"
        min={0}
        step="0.01"
        inputMode="decimal"
        label={t('adminCertificates.price')}
        value={price}
        onChange={(e) => setPrice(e.currentTarget.value)}
        data-testid="certificates-price"
      />
      {settings.offered && settings.price > 0 && (
        <p className="alert alert-info" role="status">
          {t('adminCertificates.priced')}
        </p>
      )}
      {problem !== null && (
        <p className="alert alert-danger" role="alert">
          {problem}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending} data-testid="certificates-save">
          {t('adminCertificates.save')}
        </button>
      </div>
    </form>
  );
}

function TemplateForm({
  eventKey,
  format,
  settings,
}: {
  eventKey: string;
  format: CertificateFormat;
  settings: CertificatesBody;
}) {
  const t = useDictionary(certificatesMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const saved = useSaved(eventKey);
  const [problem, setProblem] = useState<string | null>(null);
  const template = settings[format];
  const onError = (e: unknown) => {
    if (!isSignedOut(e)) setProblem(errorText(e));
  };
  const upload = useMutation({
    mutationFn: (svg: string) => saveTemplate(eventKey, format, svg),
    onSuccess: (answer) => {
      saved(answer);
      toast.success(t('adminCertificates.uploaded'));
    },
    onError,
  });
  const reset = useMutation({ mutationFn: () => resetTemplate(eventKey, format), onSuccess: saved, onError });
  const onFile = async (file: File | undefined) => {
    setProblem(null);
    if (file !== undefined) upload.mutate(await readText(file));
  };
  const inUse = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(template.svg)}`;
  return (
    <fieldset className="stack" data-testid={`certificates-${format}`}>
      <legend>{t(`adminCertificates.format.${format}`)}</legend>
      <p data-testid={`certificates-${format}-state`}>
        {template.custom ? t('adminCertificates.custom') : t('adminCertificates.shops')}
      </p>
      <InputField
        id={`certificates-${format}-file`}
        type="file"
        accept=".svg,image/svg+xml"
        label={t('adminCertificates.upload')}
        onChange={(e) => void onFile(e.currentTarget.files?.[0])}
        data-testid={`certificates-${format}-file`}
      />
      {problem !== null && (
        <p className="alert alert-danger" role="alert" data-testid={`certificates-${format}-problem`}>
          {problem}
        </p>
      )}
      <div className="row">
        <a className="btn btn-secondary" href={sampleUrl(eventKey, format)} target="_blank" rel="noopener">
          {t('adminCertificates.sample')}
        </a>
        <a className="btn btn-secondary" href={inUse} download={`certificate-${format}.svg`}>
          {t('adminCertificates.download')}
        </a>
        {template.custom && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={reset.isPending}
            onClick={() => reset.mutate()}
            data-testid={`certificates-${format}-reset`}
          >
            {t('adminCertificates.reset')}
          </button>
        )}
      </div>
    </fieldset>
  );
}
