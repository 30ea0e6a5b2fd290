//! An event's photo passes (`/admin/events/:eventKey/passes`, admins: a code is worth
//! photos). An admin makes a batch of codes (a name, how many, and what each covers: some
//! photos or every photo the runner's search finds); the server answers the only copy of
//! the codes as a CSV file, which the page hands to the browser's download at once. Below,
//! the event's batches with how many codes were used.

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useParams } from 'react-router';
import { DataTable } from '@/components/DataTable';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { saveFile } from '@/lib/saveFile';
import { RetryAlert } from '../shell/RetryAlert';
import { isSignedOut } from '../shell/session';
import {
  MAX_BATCH,
  MAX_BATCH_NAME,
  MAX_PASS_PHOTOS,
  fetchPassBatches,
  makePassBatch,
  passesKey,
  type PassBatch,
} from './api';
import { passesMessages } from './messages';

export function PassesPage() {
  const t = useDictionary(passesMessages);
  const eventKey = useParams().eventKey ?? '';
  return (
    <section className="admin-page stack">
      <h1>{t('adminPasses.title', { event: eventKey })}</h1>
      <p className="muted">{t('adminPasses.intro')}</p>
      <MakeBatchForm eventKey={eventKey} />
      <BatchList eventKey={eventKey} />
    </section>
  );
}

const BATCH_NAME = /^[\p{L}\p{N} _-]+$/u;

function MakeBatchForm({ eventKey }: { eventKey: string }) {
  const t = useDictionary(passesMessages);
  const errorText = useErrorText();
  const client = useQueryClient();
  const [batch, setBatch] = useState('');
  const [count, setCount] = useState('100');
  const [allPhotos, setAllPhotos] = useState(false);
  const [photos, setPhotos] = useState('5');
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<string | null>(null);
  const make = useMutation({
    mutationFn: (input: { batch: string; count: number; photos: number | null }) => makePassBatch(eventKey, input),
    onSuccess: ({ csv, fileName }, input) => {
      saveFile(new Blob([csv], { type: 'text/csv;charset=utf-8' }), fileName);
      setMade(t('adminPasses.made', { count: input.count, file: fileName }));
      setBatch('');
      return client.invalidateQueries({ queryKey: passesKey(eventKey) });
    },
    onError: (e) => {
      if (!isSignedOut(e)) setProblem(errorText(e));
    },
  });

  const whole = (raw: string, max: number) => {
    const n = Number(raw);
    return Number.isInteger(n) && n >= 1 && n <= max ? n : null;
  };
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setProblem(null);
    setMade(null);
    const name = batch.trim();
    const codes = whole(count, MAX_BATCH);
    const each = allPhotos ? null : whole(photos, MAX_PASS_PHOTOS);
    if (name === '' || Array.from(name).length > MAX_BATCH_NAME || !BATCH_NAME.test(name)) {
      setProblem(t('adminPasses.badBatch', { max: MAX_BATCH_NAME }));
    } else if (codes === null) {
      setProblem(t('adminPasses.badCount', { max: MAX_BATCH.toLocaleString('en-US') }));
    } else if (!allPhotos && each === null) {
      setProblem(t('adminPasses.badPhotos', { max: MAX_PASS_PHOTOS }));
    } else {
      make.mutate({ batch: name, count: codes, photos: each });
    }
  };

  return (
    <form className="card stack" noValidate onSubmit={submit} data-testid="passes-form">
      <h2>{t('adminPasses.make')}</h2>
      <InputField
        id="passes-batch"
        label={t('adminPasses.batch')}
        value={batch}
        maxLength={MAX_BATCH_NAME}
        onChange={(e) => setBatch(e.currentTarget.value)}
        data-testid="passes-batch"
      />
      <InputField
        id="passes-count"
        label={t('adminPasses.count')}
        type="number"
        inputMode="numeric"
        min={1}
        max={MAX_BATCH}
        value={count}
        onChange={(e) => setCount(e.currentTarget.value)}
        data-testid="passes-count"
      />
      <fieldset className="field">
        <legend>{t('adminPasses.cover')}</legend>
        <div className="radio-row">
          <label>
            <input
              type="radio"
              name="passes-cover"
              checked={!allPhotos}
              onChange={() => setAllPhotos(false)}
              data-testid="passes-cover-photos"
            />
            {t('adminPasses.coverPhotos')}
          </label>
          <label>
            <input
              type="radio"
              name="passes-cover"
              checked={allPhotos}
              onChange={() => setAllPhotos(true)}
              data-testid="passes-cover-all"
            />
            {t('adminPasses.coverAll')}
          </label>
        </div>
      </fieldset>
      {!allPhotos && (
        <InputField
          id="passes-photos"
          label={t('adminPasses.photos')}
          type="number"
          inputMode="numeric"
          min={1}
          max={MAX_PASS_PHOTOS}
          value={photos}
          onChange={(e) => setPhotos(e.currentTarget.value)}
          data-testid="passes-photos"
        />
      )}
      <p className="muted">{t('adminPasses.once')}</p>
      {problem !== null && (
        <p className="alert alert-danger" role="alert" data-testid="passes-problem">
          {problem}
        </p>
      )}
      {made !== null && (
        <p className="alert alert-success" role="status" data-testid="passes-made">
          {made}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" disabled={make.isPending} data-testid="passes-submit">
          {make.isPending && <Spinner inline />}
          {t('adminPasses.submit')}
        </button>
      </div>
    </form>
  );
}

function BatchList({ eventKey }: { eventKey: string }) {
  const t = useDictionary(passesMessages);
  const common = useT();
  const batches = useQuery({ queryKey: passesKey(eventKey), queryFn: () => fetchPassBatches(eventKey) });
  return (
    <section className="stack" aria-labelledby="passes-list">
      <h2 id="passes-list">{t('adminPasses.list')}</h2>
      {batches.isPending && <Spinner label={common('loading')} />}
      {batches.isError && <RetryAlert query={batches} />}
      {batches.isSuccess && batches.data.length === 0 && (
        <p className="muted" data-testid="passes-empty">
          {t('adminPasses.empty')}
        </p>
      )}
      {batches.isSuccess && batches.data.length > 0 && <BatchRows batches={batches.data} />}
    </section>
  );
}

function BatchRows({ batches }: { batches: PassBatch[] }) {
  const t = useDictionary(passesMessages);
  const [lang] = useLanguage();
  return (
    <DataTable
      className="admin-table"
      testId="passes-table"
      label={t('adminPasses.list')}
      columns={[
        t('adminPasses.col.batch'),
        t('adminPasses.col.cover'),
        { label: t('adminPasses.col.count'), num: true },
        { label: t('adminPasses.col.redeemed'), num: true },
        t('adminPasses.col.created'),
      ]}
    >
      {batches.map((b) => (
        <tr key={b.batch} data-testid="passes-row">
          <td className="admin-wrap">{b.batch}</td>
          <td>
            {b.photos === null || b.photos === undefined
              ? t('adminPasses.coversAll')
              : t('adminPasses.coversPhotos', { count: b.photos })}
          </td>
          <td className="num">{b.count.toLocaleString('en-US')}</td>
          <td className="num" data-testid="passes-redeemed">
            {b.redeemed.toLocaleString('en-US')}
          </td>
          <td className="admin-nowrap">{formatBangkokDateTime(b.created_at, lang)}</td>
        </tr>
      ))}
    </DataTable>
  );
}
