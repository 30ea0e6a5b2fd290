//! Console event form (/admin/events/new, /admin/events/:eventKey/edit): every field of the
//! import format (docs/event-import.md), grouped. The browser checks only what it needs to
//! build the body; the server judges the event and its 422 names every bad field, shown
//! beside its input and in a summary. An edit starts from the stored event in the import
//! format (hidden events and banners included). Admins only.

import './admin-events.css';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent, type HTMLInputTypeAttribute } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ErrorAlert } from '@/components/ErrorAlert';
import { ProblemSummary, useProblemSummary } from '@/components/ProblemSummary';
import { Spinner } from '@/components/Spinner';
import { useToast } from '@/components/Toast';
import { useDictionary, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { ApiFailure } from '@/api/client';
import { adminKeys } from '../shell/api';
import { useAdminEvents } from '../shell/events';
import { AdminOnly } from '../shell/operator';
import {
  BANNER_COLUMNS,
  checkForm,
  emptyBanner,
  emptyForm,
  emptyTier,
  TIER_COLUMNS,
  type BannerColumn,
  type ClientProblem,
  type EventForm,
  type FlagField,
  type TextField,
  type TierColumn,
  type TierList,
} from './eventForm';
import { eventKey, pathToWire, saveEvent, useEventForm } from './api';
import { eventsMessages } from './messages';

type Translate = ReturnType<typeof useDictionary<keyof typeof eventsMessages.th>>;
/** A problem of one field: our own text (by key) or the server's message. */
type Problem = { field: string; key?: ClientProblem['key']; message?: string };
type Mode = { kind: 'new'; takenKeys: readonly string[] } | { kind: 'edit'; eventKey: string };
type Group = TierList | 'banners';

export function EventFormPage() {
  const t = useDictionary(eventsMessages);
  const { eventKey } = useParams();
  return (
    <section className="page narrow admin-event-form-page stack">
      <p>
        <Link to="/admin/events">← {t('adminEvents.title')}</Link>
      </p>
      <h1>{eventKey === undefined ? t('adminEvents.form.newTitle') : t('adminEvents.form.editTitle', { key: eventKey })}</h1>
      <AdminOnly>{eventKey === undefined ? <NewEvent /> : <EditEvent key={eventKey} eventKey={eventKey} />}</AdminOnly>
    </section>
  );
}

function NewEvent() {
  // A new key that is already taken would silently replace that event: the list tells.
  const list = useAdminEvents();
  const takenKeys = list.data?.events.map((e) => e.event_key) ?? [];
  return <EventEditor mode={{ kind: 'new', takenKeys }} initial={emptyForm()} />;
}

function EditEvent({ eventKey }: { eventKey: string }) {
  const common = useT();
  const event = useEventForm(eventKey);
  if (event.isPending) return <Spinner label={common('loading')} />;
  if (event.isError) return <ErrorAlert error={event.error} testId="event-load-error" />;
  return <EventEditor mode={{ kind: 'edit', eventKey }} initial={event.data} />;
}

/** The name of a field's input in its test id and DOM id: its path in the import format,
 * dashed (`wholesalePackages[1].price` → `package_hb-1-price`). */
const pathName = (path: string): string =>
  pathToWire(path).replace(/\[(\d+)\]/g, '-$1').replace(/\./g, '-');

function describeProblem(t: Translate, p: Problem): string {
  return p.key ? t(`adminEvents.problem.${p.key}`) : (p.message ?? '');
}

/** Where a field path points, in the operator's words, for the summary. */
function describePath(t: Translate, path: string): string {
  const row = /^(packages|wholesalePackages|banners)\[(\d+)\]\.(\w+)$/.exec(path);
  if (row) {
    const [, group, index, column] = row as unknown as [string, Group, string, string];
    const columnLabel =
      group === 'banners'
        ? (BANNER_COLUMNS as readonly string[]).includes(column)
          ? t(`adminEvents.banner.${column as BannerColumn}`)
          : column
        : (TIER_COLUMNS as readonly string[]).includes(column)
          ? t(`adminEvents.tier.${column as TierColumn}`)
          : column;
    return `${t(`adminEvents.group.${group}`)} ${Number(index) + 1} · ${columnLabel}`;
  }
  if (path === 'packages' || path === 'wholesalePackages' || path === 'banners') return t(`adminEvents.group.${path}`);
  if (path in emptyForm()) return t(`adminEvents.field.${path as TextField | FlagField}`);
  return path === '' ? t('adminEvents.form.general') : path;
}

function EventEditor({ mode, initial }: { mode: Mode; initial: EventForm }) {
  const t = useDictionary(eventsMessages);
  const common = useT();
  const errorText = useErrorText();
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [form, setForm] = useState<EventForm>(initial);
  const [problems, setProblems] = useState<Problem[]>([]);
  const [saveError, setSaveError] = useState<string | null>(null);
  const { summaryRef, focusSummary } = useProblemSummary();

  const showProblems = (found: Problem[]) => {
    setProblems(found);
    focusSummary();
  };

  const save = useMutation({
    mutationFn: (values: EventForm) => saveEvent(mode.kind === 'edit' ? mode.eventKey : values.event_key.trim(), values),
    onSuccess: async (written) => {
      toast.success(
        t(written.result === 'created' ? 'adminEvents.saved.created' : 'adminEvents.saved.updated', {
          key: written.event_key,
        }),
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: adminKeys.events }),
        queryClient.invalidateQueries({ queryKey: eventKey(written.event_key) }),
      ]);
      void navigate('/admin/events');
    },
    onError: (e) => {
      if (e instanceof ApiFailure && e.errors.length > 0) {
        showProblems(e.errors.map((p) => ({ field: p.field, message: p.message })));
        return;
      }
      setSaveError(errorText(e));
      toast.error(errorText(e));
    },
  });

  const submit = (e: SyntheticEvent) => {
    e.preventDefault();
    setSaveError(null);
    const found = checkForm(form, mode.kind === 'new' ? mode.takenKeys : []);
    if (found.length > 0) {
      showProblems(found);
      return;
    }
    setProblems([]);
    save.mutate(form);
  };

  const clear = (matches: (field: string) => boolean) => setProblems((all) => all.filter((p) => !matches(p.field)));
  const setText = (field: TextField, value: string) => {
    setForm((f) => ({ ...f, [field]: value }));
    clear((p) => p === field);
  };
  const setFlag = (field: FlagField, value: boolean) => {
    setForm((f) => ({ ...f, [field]: value }));
    clear((p) => p === field);
  };
  const setTier = (list: TierList, index: number, column: TierColumn, value: string) => {
    setForm((f) => ({ ...f, [list]: f[list].map((row, i) => (i === index ? { ...row, [column]: value } : row)) }));
    clear((p) => p === `${list}[${index}].${column}` || p === list);
  };
  const setBanner = (index: number, column: BannerColumn, value: string) => {
    setForm((f) => ({ ...f, banners: f.banners.map((row, i) => (i === index ? { ...row, [column]: value } : row)) }));
    clear((p) => p === `banners[${index}].${column}`);
  };
  // Rows move up when one goes, so the old problems of that list no longer point right.
  const clearGroup = (group: Group) => clear((p) => p === group || p.startsWith(`${group}[`));
  const addRow = (group: Group) => {
    setForm((f) =>
      group === 'banners' ? { ...f, banners: [...f.banners, emptyBanner()] } : { ...f, [group]: [...f[group], emptyTier()] },
    );
    clear((p) => p === group);
  };
  const removeRow = (group: Group, index: number) => {
    setForm((f) =>
      group === 'banners'
        ? { ...f, banners: f.banners.filter((_, i) => i !== index) }
        : { ...f, [group]: f[group].filter((_, i) => i !== index) },
    );
    clearGroup(group);
  };

  const problemsOf = (path: string) => problems.filter((p) => p.field === path);
  const text = (
    field: TextField,
    options: Omit<FieldProps, 'path' | 'label' | 'value' | 'onChange' | 'problems' | 'describe'> = {},
  ) => (
    <Field
      path={field}
      label={t(`adminEvents.field.${field}`)}
      value={form[field]}
      onChange={(v) => setText(field, v)}
      problems={problemsOf(field)}
      describe={(p) => describeProblem(t, p)}
      {...options}
    />
  );
  const check = (field: FlagField, hint?: string) => (
    <Check
      field={field}
      label={t(`adminEvents.field.${field}`)}
      hint={hint}
      checked={form[field]}
      onChange={(v) => setFlag(field, v)}
      problems={problemsOf(field)}
      describe={(p) => describeProblem(t, p)}
    />
  );
  const groupError = (group: Group) =>
    problemsOf(group).length > 0 && (
      <p className="field-error" data-testid={`error-${pathToWire(group)}`} role="alert">
        {problemsOf(group)
          .map((p) => describeProblem(t, p))
          .join(' ')}
      </p>
    );

  const tierGroup = (list: TierList, hint: string) => (
    <fieldset className="card admin-event-fieldset" data-testid={`group-${pathToWire(list)}`}>
      <legend>{t(`adminEvents.group.${list}`)}</legend>
      <p className="muted admin-event-hint">{hint}</p>
      {form[list].length === 0 && <p className="muted">{t('adminEvents.tier.none')}</p>}
      {form[list].map((row, i) => (
        <div key={i} className="admin-event-form-row" role="group" aria-label={`${t(`adminEvents.group.${list}`)} ${i + 1}`}>
          {TIER_COLUMNS.map((column) => (
            <Field
              key={column}
              path={`${list}[${i}].${column}`}
              label={t(`adminEvents.tier.${column}`)}
              value={row[column]}
              onChange={(v) => setTier(list, i, column, v)}
              inputMode={column === 'price' ? 'decimal' : column === 'number_of_photo' ? 'numeric' : undefined}
              required={column !== 'name_en'}
              problems={problemsOf(`${list}[${i}].${column}`)}
              describe={(p) => describeProblem(t, p)}
            />
          ))}
          <button
            type="button"
            className="btn btn-secondary btn-small admin-event-remove"
            data-testid={`remove-${pathToWire(list)}-${i}`}
            onClick={() => removeRow(list, i)}
          >
            {t('adminEvents.row.remove')}
          </button>
        </div>
      ))}
      {groupError(list)}
      <button type="button" className="btn btn-secondary btn-small" data-testid={`add-${pathToWire(list)}`} onClick={() => addRow(list)}>
        {t('adminEvents.tier.add')}
      </button>
    </fieldset>
  );

  const coverShown = /^(https?:\/\/|\/)/.test(form.coverurl.trim());

  return (
    <form className="admin-event-form stack" data-testid="event-form" noValidate onSubmit={submit}>
      {problems.length > 0 && (
        <ProblemSummary
          summaryRef={summaryRef}
          className="admin-event-summary"
          testId="form-errors"
          title={<strong>{t('adminEvents.form.problems', { count: problems.length })}</strong>}
        >
          {problems.map((p, i) => (
            <li key={`${p.field}-${i}`}>
              <a
                href={`#event-field-${pathName(p.field)}`}
                onClick={(e) => {
                  const target = document.getElementById(`event-field-${pathName(p.field)}`);
                  if (!target) return;
                  e.preventDefault();
                  target.focus();
                }}
              >
                {describePath(t, p.field)}
              </a>
              : {describeProblem(t, p)}
            </li>
          ))}
        </ProblemSummary>
      )}

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.basics')}</legend>
        {text('event_key', {
          required: true,
          readOnly: mode.kind === 'edit',
          hint: t(mode.kind === 'edit' ? 'adminEvents.hint.keyFixed' : 'adminEvents.hint.key'),
          autoCapitalize: 'none',
        })}
        {text('title', { required: true })}
        {text('event_date_text', { hint: t('adminEvents.hint.eventDateText') })}
        {text('province')}
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.dates')}</legend>
        {text('eventdate', { type: 'date', required: true })}
        {text('on_sale_start', { required: true, hint: t('adminEvents.hint.saleStart') })}
        {text('on_sale_end', { required: true, hint: t('adminEvents.hint.saleEnd') })}
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.deals')}</legend>
        {check('deal', t('adminEvents.hint.deal'))}
        {text('dealPrice', { inputMode: 'decimal', hint: t('adminEvents.hint.baht') })}
        {check('wholesale', t('adminEvents.hint.wholesale'))}
        {check('wholesaleDeal', t('adminEvents.hint.wholesaleDeal'))}
        {text('wholesaleDealPrice', { inputMode: 'decimal', hint: t('adminEvents.hint.baht') })}
        {text('dealLabel')}
        {check('manualSearch')}
        {check('freeDownload', t('adminEvents.hint.isFreeDownload'))}
        {check('freeForContact', t('adminEvents.hint.isFreeKeepContract'))}
        {check('pin', t('adminEvents.hint.pin'))}
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.face')}</legend>
        {text('face_threshold', { inputMode: 'decimal', hint: t('adminEvents.hint.faceThreshold') })}
        {text('max_face_search', { inputMode: 'numeric', hint: t('adminEvents.hint.maxFaceSearch') })}
      </fieldset>

      <fieldset className="card admin-event-fieldset" data-testid="group-bib">
        <legend>{t('adminEvents.group.bib')}</legend>
        <p className="muted admin-event-hint">{t('adminEvents.hint.bib')}</p>
        {text('bib_min_digits', { inputMode: 'numeric', hint: t('adminEvents.hint.bibMinDigits') })}
        {text('bib_max_digits', { inputMode: 'numeric', hint: t('adminEvents.hint.bibMaxDigits') })}
        {text('bib_prefix', { hint: t('adminEvents.hint.bibPrefix'), autoCapitalize: 'characters' })}
      </fieldset>

      {tierGroup('packages', t('adminEvents.hint.package'))}
      {tierGroup('wholesalePackages', t('adminEvents.hint.packageHb'))}

      <fieldset className="card admin-event-fieldset" data-testid="group-banners">
        <legend>{t('adminEvents.group.banners')}</legend>
        <p className="muted admin-event-hint">{t('adminEvents.hint.banners')}</p>
        {form.banners.map((row, i) => (
          <div key={i} className="admin-event-form-row" role="group" aria-label={`${t('adminEvents.group.banners')} ${i + 1}`}>
            {BANNER_COLUMNS.map((column) => (
              <Field
                key={column}
                path={`banners[${i}].${column}`}
                label={t(`adminEvents.banner.${column}`)}
                value={row[column]}
                onChange={(v) => setBanner(i, column, v)}
                type="url"
                required={column === 'image_url'}
                problems={problemsOf(`banners[${i}].${column}`)}
                describe={(p) => describeProblem(t, p)}
              />
            ))}
            <button
              type="button"
              className="btn btn-secondary btn-small admin-event-remove"
              data-testid={`remove-banners-${i}`}
              onClick={() => removeRow('banners', i)}
            >
              {t('adminEvents.row.remove')}
            </button>
          </div>
        ))}
        {groupError('banners')}
        <button type="button" className="btn btn-secondary btn-small" data-testid="add-banners" onClick={() => addRow('banners')}>
          {t('adminEvents.banner.add')}
        </button>
      </fieldset>

      <fieldset className="card admin-event-fieldset">
        <legend>{t('adminEvents.group.cover')}</legend>
        {text('coverurl', { type: 'url', hint: t('adminEvents.hint.cover') })}
        {coverShown && <CoverPreview url={form.coverurl.trim()} t={t} />}
      </fieldset>

      {saveError && (
        <p className="alert alert-danger" role="alert" data-testid="save-error">
          {saveError}
        </p>
      )}
      <div className="row">
        <button type="submit" className="btn btn-primary" data-testid="save-event" disabled={save.isPending}>
          {save.isPending && <Spinner inline label={common('loading')} />}
          {t('adminEvents.form.save')}
        </button>
        <Link to="/admin/events" className="btn btn-secondary">
          {common('cancel')}
        </Link>
      </div>
    </form>
  );
}

function CoverPreview({ url, t }: { url: string; t: Translate }) {
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

/** What an input's `aria-describedby` names: its hint and its problems, when shown. */
function describedBy(id: string, hint: string | undefined, problems: Problem[]): string | undefined {
  return [hint ? `${id}-hint` : '', problems.length > 0 ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
}

type NotesProps = { id: string; path: string; hint: string | undefined; problems: Problem[]; describe: (p: Problem) => string };

/** The hint and the problems below an input (its DOM id `id`, its field path `path`). */
function FieldNotes({ id, path, hint, problems, describe }: NotesProps) {
  return (
    <>
      {hint && (
        <small id={`${id}-hint`} className="muted">
          {hint}
        </small>
      )}
      {problems.length > 0 && (
        <p className="field-error" id={`${id}-error`} data-testid={`error-${pathToWire(path)}`}>
          {problems.map(describe).join(' ')}
        </p>
      )}
    </>
  );
}

type FieldProps = {
  path: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  problems: Problem[];
  describe: (p: Problem) => string;
  type?: HTMLInputTypeAttribute;
  inputMode?: 'decimal' | 'numeric';
  hint?: string;
  required?: boolean;
  readOnly?: boolean;
  autoCapitalize?: string;
};

/** One input with its label, hint and problems; its test id and DOM id come from its path. */
function Field({ path, label, value, onChange, problems, describe, type = 'text', hint, required, ...rest }: FieldProps) {
  const name = pathName(path);
  const id = `event-field-${name}`;
  return (
    <div className="field">
      <label htmlFor={id}>
        {label}
        {required && <span aria-hidden="true"> *</span>}
      </label>
      <input
        id={id}
        name={pathToWire(path)}
        type={type}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-required={required || undefined}
        aria-invalid={problems.length > 0 || undefined}
        aria-describedby={describedBy(id, hint, problems)}
        data-testid={`field-${name}`}
        {...rest}
      />
      <FieldNotes id={id} path={path} hint={hint} problems={problems} describe={describe} />
    </div>
  );
}

type CheckProps = {
  field: FlagField;
  label: string;
  hint: string | undefined;
  checked: boolean;
  onChange: (value: boolean) => void;
  problems: Problem[];
  describe: (p: Problem) => string;
};

function Check({ field, label, hint, checked, onChange, problems, describe }: CheckProps) {
  const id = `event-field-${pathName(field)}`;
  return (
    <div className="admin-event-check-field">
      <label className="admin-event-check" htmlFor={id}>
        <input
          id={id}
          name={pathToWire(field)}
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          aria-invalid={problems.length > 0 || undefined}
          aria-describedby={describedBy(id, hint, problems)}
          data-testid={`field-${pathName(field)}`}
        />
        <span>{label}</span>
      </label>
      <FieldNotes id={id} path={field} hint={hint} problems={problems} describe={describe} />
    </div>
  );
}
