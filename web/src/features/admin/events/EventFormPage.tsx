//! Console event form pages (/admin/events/new, /admin/events/:eventKey/edit): a new event
//! starts from an empty form with the 1-photo tier; an edit starts from the stored event in
//! the import format (hidden events and banners included). Admins only.

import './admin-events.css';
import { Link, useParams } from 'react-router';
import { ErrorAlert } from '@/components/ErrorAlert';
import { Spinner } from '@/components/Spinner';
import { useT } from '@/i18n';
import { useAdminEvents } from '../shell/events';
import { AdminOnly } from '../shell/operator';
import { useEventForm } from './api';
import { EventEditor } from './EventEditor';
import { emptyForm } from './eventForm';
import { useAdminEventsT } from './i18n';

export function EventFormPage() {
  const t = useAdminEventsT();
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
