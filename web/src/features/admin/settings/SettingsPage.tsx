//! Console settings (/admin/settings, admins only): payments, e-mail, text messages (the
//! SMS provider and its keys), retention and the shop's logo. Values set here lie over the server's
//! configuration; a save sends only the keys that really changed (`null` goes back to the
//! configuration), secrets are write-only, switching the gateway asks first, and a 422's
//! problems appear beside their inputs and in a summary. Photographers read the forbidden text.

import './admin-settings.css';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type SyntheticEvent } from 'react';
import { ErrorAlert } from '@/components/ErrorAlert';
import { ProblemSummary, useProblemSummary } from '@/components/ProblemSummary';
import { Spinner } from '@/components/Spinner';
import { useDialog } from '@/components/Dialog';
import { useToast } from '@/components/Toast';
import { useDictionary, useT } from '@/i18n';
import { useErrorText } from '@/i18n/errors';
import { ApiFailure } from '@/api/client';
import { fetchSettings, saveSettings, settingsKey } from './api';
import { LogoSection } from './LogoSection';
import { TrialSection } from './TrialSection';
import { settingsMessages } from './messages';
import { fieldId, gatewayWarning, SettingField } from './SettingField';
import {
  changesFrom,
  GROUPS,
  isSettingKey,
  problemsFor,
  settingOf,
  type Changes,
  type Edit,
  type Edits,
  type FieldProblem,
  type GroupId,
  type SettingKey,
  type Settings,
} from './settingsModel';

export function SettingsPage() {
  const t = useDictionary(settingsMessages);
  const common = useT();
  const settings = useQuery({ queryKey: settingsKey, queryFn: fetchSettings });
  return (
    <section className="page narrow admin-settings stack">
      <h1>{t('adminSettings.title')}</h1>
      {settings.isPending ? (
        <Spinner label={common('loading')} />
      ) : settings.isError ? (
        <ErrorAlert error={settings.error} testId="settings-load-error" />
      ) : (
        <>
          <p className="admin-settings-intro">{t('adminSettings.intro')}</p>
          <FaceModels models={settings.data.face_models} />
          <SettingsForm settings={settings.data} />
          <TrialSection />
          <LogoSection shopLogo={settings.data.shop_logo} />
        </>
      )}
    </section>
  );
}

/** The face models in use and their licence; a warning while they may not be sold with. */
function FaceModels({ models }: { models: Settings['face_models'] }) {
  const t = useDictionary(settingsMessages);
  return (
    <section className="card admin-settings-group" aria-labelledby="admin-settings-faces-title" data-testid="face-models">
      <h2 id="admin-settings-faces-title">{t('adminSettings.faceModels.title')}</h2>
      <p>{t('adminSettings.faceModels.inUse', { licence: models.licence })}</p>
      {models.commercial ? null : (
        <p className="alert alert-warning" role="alert" data-testid="face-models-warning">
          {t('adminSettings.faceModels.nonCommercial')}
        </p>
      )}
      <p className="admin-settings-help">{t('adminSettings.faceModels.help')}</p>
    </section>
  );
}

function SettingsForm({ settings }: { settings: Settings }) {
  const t = useDictionary(settingsMessages);
  const errorText = useErrorText();
  const toast = useToast();
  const dialog = useDialog();
  const queryClient = useQueryClient();
  const [edits, setEdits] = useState<Edits>({});
  const [problems, setProblems] = useState<FieldProblem[]>([]);
  const [saveError, setSaveError] = useState<string | null>(null);
  const [nothingToSave, setNothingToSave] = useState(false);
  const { summaryRef, focusSummary } = useProblemSummary();

  const changes = changesFrom(settings, edits);
  const changeCount = Object.keys(changes).length;

  const save = useMutation({
    mutationFn: saveSettings,
    onSuccess: (saved) => {
      // The answer is the settings in force: the page shows them without asking again.
      queryClient.setQueryData(settingsKey, saved);
      setEdits({});
      setProblems([]);
      toast.success(t('adminSettings.saved'));
    },
    onError: (e) => {
      if (e instanceof ApiFailure && e.errors.length > 0) {
        setProblems(e.errors);
        focusSummary();
        return;
      }
      setSaveError(errorText(e));
      toast.error(errorText(e));
    },
  });

  const edit = (key: SettingKey, next: Edit | undefined) => {
    setEdits((all) =>
      next === undefined ? Object.fromEntries(Object.entries(all).filter(([k]) => k !== key)) : { ...all, [key]: next },
    );
    setProblems((all) => all.filter((p) => p.field !== key));
    setNothingToSave(false);
  };

  const confirmGateway = (change: string | null) =>
    dialog.confirm({
      title: t('adminSettings.gateway.confirmTitle'),
      text: gatewayWarning(t, change),
      okLabel: t('adminSettings.gateway.confirmOk'),
      tone: 'warning',
    });

  const submit = async (e: SyntheticEvent) => {
    e.preventDefault();
    if (save.isPending) return;
    setSaveError(null);
    const toSend: Changes = changesFrom(settings, edits);
    if (Object.keys(toSend).length === 0) {
      setNothingToSave(true);
      return;
    }
    const gateway = toSend['payments.gateway'];
    if (gateway !== undefined && !(await confirmGateway(gateway))) return;
    save.mutate(toSend);
  };

  const discard = () => {
    setEdits({});
    setProblems([]);
    setSaveError(null);
  };

  const label = (field: string) =>
    isSettingKey(field) ? t(`adminSettings.field.${field}`) : field;

  const group = (id: GroupId) => {
    const spec = GROUPS.find((g) => g.id === id);
    if (!spec) return null;
    return (
      <section className="card admin-settings-group" aria-labelledby={`admin-settings-${id}-title`}>
        <h2 id={`admin-settings-${id}-title`}>{t(`adminSettings.group.${id}`)}</h2>
        <p className="admin-settings-help">{t(`adminSettings.group.${id}.help`)}</p>
        {spec.fields.map((field) => {
          const setting = settingOf(settings, field.key);
          if (!setting) return null;
          return (
            <SettingField
              key={field.key}
              spec={field}
              setting={setting}
              edit={edits[field.key]}
              problems={problemsFor(problems, field.key)}
              gateways={settings.gateways}
              onEdit={(next) => edit(field.key, next)}
            />
          );
        })}
      </section>
    );
  };

  return (
    <form className="admin-settings-form stack" noValidate onSubmit={(e) => void submit(e)} data-testid="settings-form">
      {problems.length > 0 && (
        <ProblemSummary
          summaryRef={summaryRef}
          className="admin-settings-summary"
          testId="settings-errors"
          title={t('adminSettings.problems.title', { count: problems.length })}
        >
          {problems.map((p, i) => (
            <li key={i}>
              {isSettingKey(p.field) ? <a href={`#${fieldId(p.field)}`}>{label(p.field)}</a> : label(p.field)}
              {p.field !== '' && ': '}
              {p.message}
            </li>
          ))}
        </ProblemSummary>
      )}
      {group('payments')}
      {group('email')}
      {group('sms')}
      {group('line')}
      {group('caps')}
      {group('retention')}
      {saveError !== null && (
        <p className="alert alert-danger" role="alert" data-testid="settings-save-error">
          {saveError}
        </p>
      )}
      <div className="admin-settings-savebar">
        <p className="admin-settings-savebar-status" role="status">
          {changeCount > 0
            ? t('adminSettings.pendingCount', { count: changeCount })
            : nothingToSave
              ? t('adminSettings.noChanges')
              : ''}
        </p>
        <div className="admin-settings-savebar-buttons">
          <button
            type="button"
            className="btn btn-secondary"
            onClick={discard}
            disabled={Object.keys(edits).length === 0 || save.isPending}
          >
            {t('adminSettings.discard')}
          </button>
          <button type="submit" className="btn btn-primary" data-testid="save-settings" disabled={save.isPending}>
            {save.isPending ? t('adminSettings.saving') : t('adminSettings.save')}
          </button>
        </div>
      </div>
    </form>
  );
}
