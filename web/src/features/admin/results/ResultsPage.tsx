//! An event's race results (`/admin/events/:eventKey/results`, admins: results are runners'
//! personal data). A results file is read and checked by the server first: the page shows
//! which column holds each field (the server's guess, or the event's last map), lets the
//! admin choose another, and lists every bad line; nothing is imported until every row
//! holds. Below, one runner's row is deleted by bib when they ask, and the event's
//! finisher certificates are set up (`CertificatesSection`).

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { useParams } from 'react-router';
import { InputField } from '@/components/InputField';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useDictionary, useLanguage, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { formatBangkokDateTime } from '@/lib/dates';
import { readText } from '@/lib/files';
import { CertificatesSection } from './CertificatesSection';
import { RetryAlert } from '../shell/RetryAlert';
import { isSignedOut } from '../shell/session';
import {
  RESULT_FIELDS,
  deleteResult,
  fetchResultsImport,
  resultsKey,
  sendResults,
  type Columns,
  type ResultsChecked,
} from './api';
import { resultsMessages } from './messages';

export function ResultsPage() {
  const t = useDictionary(resultsMessages);
  const eventKey = useParams().eventKey ?? '';
  return (
    <section className="admin-page stack">
      <h1>{t('adminResults.title', { event: eventKey })}</h1>
      <p className="muted">{t('adminResults.intro')}</p>
      <LastImport eventKey={eventKey} />
      <ImportForm eventKey={eventKey} />
      <DeleteForm eventKey={eventKey} />
      <CertificatesSection eventKey={eventKey} />
    </section>
  );
}

function LastImport({ eventKey }: { eventKey: string }) {
  const t = useDictionary(resultsMessages);
  const common = useT();
  const [lang] = useLanguage();
  const last = useQuery({ queryKey: resultsKey(eventKey), queryFn: () => fetchResultsImport(eventKey) });
  if (last.isPending) return <Spinner label={common('loading')} />;
  if (last.isError) return <RetryAlert query={last} />;
  const at = last.data.imported_at;
  return (
    <p data-testid="results-last">
      {at ? t('adminResults.last', { when: formatBangkokDateTime(at, lang), rows: last.data.rows }) : t('adminResults.none')}
    </p>
  );
}

function ImportForm({ eventKey }: { eventKey: string }) {
  const t = useDictionary(resultsMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const client = useQueryClient();
  const [csv, setCsv] = useState<string | null>(null);
  const [columns, setColumns] = useState<Columns>({});
  const [checked, setChecked] = useState<ResultsChecked | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const send = useMutation({
    mutationFn: ({ text, map, check }: { text: string; map: Columns; check: boolean }) =>
      sendResults(eventKey, text, map, check),
    onSuccess: (answer) => {
      setChecked(answer);
      setColumns(answer.columns);
      if (answer.imported) {
        toast.success(t('adminResults.imported', { rows: answer.rows }));
        setCsv(null);
        setChecked(null);
        return client.invalidateQueries({ queryKey: resultsKey(eventKey) });
      }
      return undefined;
    },
    onError: (e) => {
      if (!isSignedOut(e)) setProblem(errorText(e));
    },
  });
  const onFile = async (file: File | undefined) => {
    setProblem(null);
    setChecked(null);
    setColumns({});
    if (file === undefined) return;
    const text = await readText(file);
    setCsv(text);
    send.mutate({ text, map: {}, check: true });
  };
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setProblem(null);
    if (csv !== null) send.mutate({ text: csv, map: columns, check: false });
  };
  const problems = checked?.problems ?? [];
  const ready = checked !== null && problems.length === 0 && checked.rows > 0;
  return (
    <form className="card stack" noValidate onSubmit={submit} data-testid="results-form">
      <InputField
        id="results-file"
        type="file"
        accept=".csv,text/csv,text/plain"
        label={t('adminResults.file')}
        onChange={(e) => void onFile(e.currentTarget.files?.[0])}
        data-testid="results-file"
      />
      {checked !== null && (
        <fieldset className="stack" data-testid="results-columns">
          <legend>{t('adminResults.columns')}</legend>
          {RESULT_FIELDS.map((field) => (
            <div className="field" key={field}>
              <label htmlFor={`results-col-${field}`}>{t(`adminResults.field.${field}`)}</label>
              <select
                id={`results-col-${field}`}
                value={columns[field] ?? ''}
                onChange={(e) => setColumns({ ...columns, [field]: e.currentTarget.value })}
                data-testid={`results-col-${field}`}
              >
                <option value="">{t('adminResults.unmapped')}</option>
                {checked.headers.map((h) => (
                  <option key={h} value={h}>
                    {h}
                  </option>
                ))}
              </select>
            </div>
          ))}
        </fieldset>
      )}
      {checked !== null && problems.length === 0 && (
        <p className="alert alert-success" role="status" data-testid="results-checked">
          {t('adminResults.checked', { rows: checked.rows })}
        </p>
      )}
      {problems.length > 0 && (
        <div className="alert alert-danger" role="alert" data-testid="results-problems">
          <strong>{t('adminResults.problems', { count: problems.length })}</strong>
          <ul>
            {problems.slice(0, 50).map((p) => (
              <li key={`${p.line}-${p.reason}`}>{t('adminResults.line', { line: p.line, reason: p.reason })}</li>
            ))}
          </ul>
        </div>
      )}
      {problem !== null && (
        <p className="alert alert-danger" role="alert" data-testid="results-problem">
          {problem}
        </p>
      )}
      <div className="row">
        {csv !== null && (
          <button
            type="button"
            className="btn btn-secondary"
            disabled={send.isPending}
            onClick={() => send.mutate({ text: csv, map: columns, check: true })}
            data-testid="results-check"
          >
            {t('adminResults.check')}
          </button>
        )}
        <button type="submit" className="btn btn-primary" disabled={!ready || send.isPending} data-testid="results-import">
          {send.isPending && <Spinner inline label={t('adminResults.check')} />}
          {t('adminResults.import', { rows: checked?.rows ?? 0 })}
        </button>
      </div>
    </form>
  );
}

function DeleteForm({ eventKey }: { eventKey: string }) {
  const t = useDictionary(resultsMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const client = useQueryClient();
  const [bib, setBib] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const remove = useMutation({
    mutationFn: (b: string) => deleteResult(eventKey, b),
    onSuccess: (_, b) => {
      toast.success(t('adminResults.deleted', { bib: b }));
      setBib('');
      return client.invalidateQueries({ queryKey: resultsKey(eventKey) });
    },
    onError: (e) => {
      if (!isSignedOut(e)) setProblem(errorText(e));
    },
  });
  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setProblem(null);
    if (bib.trim() !== '') remove.mutate(bib.trim());
  };
  return (
    <form className="card stack" noValidate onSubmit={submit} data-testid="results-delete-form">
      <h2>{t('adminResults.deleteTitle')}</h2>
      <p className="muted">{t('adminResults.deleteHelp')}</p>
      <InputField
        id="results-delete-bib"
        label={t('adminResults.bib')}
        value={bib}
        maxLength={32}
        onChange={(e) => setBib(e.currentTarget.value)}
        data-testid="results-delete-bib"
      />
      {problem !== null && (
        <p className="alert alert-danger" role="alert">
          {problem}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-danger" disabled={remove.isPending} data-testid="results-delete">
          {t('adminResults.delete')}
        </button>
      </div>
    </form>
  );
}
