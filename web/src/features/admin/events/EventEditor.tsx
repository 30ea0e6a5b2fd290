//! The console's event form: every field of the import format, grouped, held by
//! react-hook-form. The browser checks only what it needs to build the body (`checkForm`);
//! the server judges the event and its 422 names every bad field, shown beside its input
//! and in a summary.

import { FormProvider, useForm } from 'react-hook-form';
import { Link } from 'react-router';
import { Spinner } from '@/components/Spinner';
import { useT } from '@/i18n';
import { checkForm, type EventForm } from './eventForm';
import { CoverSection, FieldSections } from './EventSections';
import { useAdminEventsT } from './i18n';
import { ProblemList } from './ProblemList';
import { ProblemsProvider, useProblemList } from './problems';
import { BannerGroup, TierGroup } from './RowGroups';
import { useSaveEvent } from './useSaveEvent';

/** A new event (whose key must not be taken already) or the edit of an existing one. */
export type Mode = { kind: 'new'; takenKeys: readonly string[] } | { kind: 'edit'; eventKey: string };

export function EventEditor({ mode, initial }: { mode: Mode; initial: EventForm }) {
  const t = useAdminEventsT();
  const common = useT();
  const form = useForm<EventForm>({ defaultValues: initial });
  const problems = useProblemList();
  const { save, saveError, clearSaveError } = useSaveEvent(mode.kind === 'edit' ? mode.eventKey : null, problems.show);

  const submit = (values: EventForm) => {
    clearSaveError();
    const found = checkForm(values, mode.kind === 'new' ? mode.takenKeys : []);
    problems.show(found);
    if (found.length === 0) save.mutate(values);
  };

  return (
    <FormProvider {...form}>
      <ProblemsProvider value={problems.value}>
        <form
          className="admin-event-form stack"
          data-testid="event-form"
          noValidate
          onSubmit={(e) => void form.handleSubmit(submit)(e)}
        >
          <ProblemList summaryRef={problems.summaryRef} />
          <FieldSections keyFixed={mode.kind === 'edit'} />
          <TierGroup list="packages" hint={t('adminEvents.hint.package')} />
          <TierGroup list="wholesalePackages" hint={t('adminEvents.hint.packageHb')} />
          <BannerGroup />
          <CoverSection />
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
      </ProblemsProvider>
    </FormProvider>
  );
}
